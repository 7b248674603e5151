// Testing face of @app/domain (specs, test harnesses and tools only): command and history
// builders, the decider spec helpers, random action sequences and a worker simulation.
export * from './fixtures';
export * from './turn-fixtures';
export * from './waiting-fixtures';
export * from './scheduler-fixtures';
export * from './decider-spec';
export * from './run-command';
export * from './random-actions';
export * from './worker-simulation';
