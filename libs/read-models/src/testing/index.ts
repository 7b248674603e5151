// Testing face of @app/read-models (specs and test harnesses only): the run's Postgres (jest's
// globalSetup starts it), a migrated pool on it, a fresh schema per suite, fresh ids.
export * from './test-postgres';
