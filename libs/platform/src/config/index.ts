export * from './api-tokens';
export * from './runtime-config';
export * from './config.providers';
