export * from './bearer-token';
export * from './access-decision';
export * from './token-request-authorizer';
export * from './admin-token';
export * from './auth.guard';
export * from './auth.decorators';
export * from './auth.providers';
export * from './auth.module';
