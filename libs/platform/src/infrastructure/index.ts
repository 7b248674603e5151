export * from './event-store.providers';
export * from './postgres-pool.providers';
export * from './infrastructure.module';
