// Public face of @app/read-models: the Postgres pool and migrations, the projection runner and
// its Nest modules, the snapshot store, and the queries of each read model. Specs and test
// harnesses also have @app/read-models/testing (a migrated pool on the run's Postgres).

export * from './postgres/postgres-pool';
export * from './postgres/migrations';
export * from './postgres/projection-health';
export * from './postgres/fleet-gauges';

export * from './projection/projector';
export * from './projection/projection-runner';
export * from './projection/poison';
export * from './projection/dead-letter-resolver';
export type { ParkedAgent } from './projection/parked-agents';
export type { DeadLetterOutcome } from './projection/dead-letters';
export * from './read-models.module';
export * from './ownership';
export * from './snapshots/postgres-snapshot-store';

export { workItemsProjector } from './work-items/work-items.projector';
export * from './work-items/work-items.queries';
export { PostgresAgentDirectory } from './work-items/agent-directory';
export * from './records/record-queries';
export * from './scheduler/scheduler.queries';
export * from './scheduler/scheduler-state.view';
export { schedulerAgendaProjector, readAgendaPage } from './scheduler/scheduler-agenda';
export * from './console/console.queries';
export * from './delegation/agent-parents.projector';
export * from './stranded/stranded.projector';
export * from './stranded/stranded.queries';

export * from './consistency/coverage';
export * from './consistency/read-barrier';
export * from './consistency/runner-coverage';
export * from './consistency/standby-coverage';
export * from './consistency/listened-coverage';
export { PROGRESS_CHANNEL } from './projection/progress-notice';
