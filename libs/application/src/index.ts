// Public face of @app/application: the command and query handlers (Nest CQRS), their modules,
// the agent repository, auth, the scheduler worker and the audit reads. Specs and tools also
// have @app/application/testing (the stored event samples).

export * from './settings';

export * from './agents/agent-repository';
export * from './agents/idempotency-window';
export * from './agents/agent-command.service';

export * from './auth';

export * from './work-items/work-item.commands';
export * from './work-items/work-item.queries';
export * from './work-items/plan-versions.queries';
export * from './work-items/work-items.module';
export * from './archive/archive.handler';
export * from './archive/archive-policy';
export * from './plans/plan-artifact.store';
export * from './plans/plan-bodies';
export * from './plans/plan-paths';

export * from './messages/message.commands';
export * from './control/control.handler';
export * from './tasks/task.commands';
export * from './timers/timer.commands';
export * from './waiting/waiting.commands';
export * from './waiting/waiting.queries';
export * from './waiting/waiting-plane.module';

export * from './turns/turn.commands';
export * from './turns/turns.module';
export * from './scheduler/activation';
export * from './scheduler/activation-waiters';
export * from './scheduler/scheduler.queries';
export { GetWorkItemWhyQuery, type WorkItemWhyReply } from './scheduler/why-not.query';
export * from './scheduler/scheduler-queries.module';
export * from './scheduler/scheduler-step.service';
export * from './scheduler/scheduler-ids';
export * from './scheduler/scheduler-worker';
export * from './scheduler/scheduler.module';

export * from './audit/stored-event-json';
export * from './audit/agent-events.reader';
export * from './audit/agent-export';
export * from './audit/changes-feed';
export * from './audit/projections-admin';
export * from './audit/dead-letters-admin';
export * from './audit/service-address';
export * from './audit/refusal-log';
export * from './audit/audit.module';

export * from './delegation/delegation.commands';
export * from './delegation/delegation-handoff';
export * from './delegation/delegation.handlers';
export * from './delegation/handoff-worker';
export * from './delegation/delegation.module';

export * from './consistency/read-your-writes';
export * from './consistency/read-your-writes.module';
