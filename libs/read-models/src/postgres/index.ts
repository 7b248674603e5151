export * from './postgres-pool';
export * from './migrations';
export * from './postgres.providers';
