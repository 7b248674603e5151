export * from './tracing-config';
export * from './tracing-sdk';
export { OtelTracing } from './otel-tracing';
