export * from './prometheus-metrics';
export * from './scrape-gauges';
export * from './command-metrics';
export * from './metrics-access';
export * from './metrics-scrape';
export * from './metrics.controller';
export * from './metrics-server';
export * from './metrics.module';
