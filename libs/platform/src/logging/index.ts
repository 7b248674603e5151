export * from './logger';
export * from './nest-logger.adapter';
export * from './request-logging';
