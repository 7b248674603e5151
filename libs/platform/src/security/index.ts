export * from './rate-limiter';
export * from './rate-limiting';
