// Testing face of @app/application (specs, test harnesses and tools only): the stored event samples.
export * from './event-samples';
export * from './domain-event-types';
