export * from './runtime-config';
export * from './config.providers';
export * from './listen-address';
