export * from './event-store.providers';
export * from './infrastructure.module';
