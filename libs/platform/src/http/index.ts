export * from './json-guard';
export * from './validation';
export * from './all-exceptions.filter';
export * from './fastify-setup';
export * from './swagger';
export * from './rate-limit-hook';
export * from './min-position.interceptor';
export * from './openapi-document';
