export * from './request-authorizer';
export * from './route-metadata';
