export * from './request-authorizer';
export * from './route-metadata';
export * from './rate-limiter';
