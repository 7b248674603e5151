export * from './boot';
export * from './runtime-app';
export * from './runtime.module';
