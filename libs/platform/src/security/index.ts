export * from './rate-limiter';
export * from './rate-limiting';
export * from './login-throttle-policy';
export * from './login-throttle';
