export * from './health-report';
export * from './health.controller';
export * from './health.module';
