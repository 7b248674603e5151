export * from './shard-hash';
export * from './lease-table';
export * from './lease-keeper';
export * from './shard-ownership';
export * from './lease-readiness';
