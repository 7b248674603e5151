export * from './runtime-config';
export * from './config.providers';
