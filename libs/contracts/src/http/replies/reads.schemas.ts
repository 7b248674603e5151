import {
  anyObject,
  arrayOf,
  bool,
  checkpoint,
  dateTime,
  decimal,
  int,
  listOf,
  nullable,
  num,
  object,
  oneOfStrings,
  ref,
  type SchemaObject,
  str,
} from './schema';
import { CANDIDATE_CLASSES, postureSchema } from './views.schemas';
import { agentSummaryFields } from './views.schemas';

// Audit, console, administration and health replies (shapes of libs/application, libs/read-models
// and libs/platform, which this library sits below: the e2e spec proves them against the service).

const count = (description?: string) => int(description, { minimum: 0 });
const countsOf = (keys: readonly string[]) => object(Object.fromEntries(keys.map((key) => [key, count()])));

const auditEvent = object(
  {
    event_id: str('the event id (a UUID)'),
    revision: decimal('agent stream revision'),
    position: decimal('global store position'),
    type: str('the event type, e.g. WorkItemCreated'),
    data: anyObject('the event data, upcast to its current schema'),
    metadata: {
      type: 'object',
      properties: {
        correlation_id: str(),
        causation_id: str(),
        command_id: str('the Idempotency-Key (or a generated id)'),
        actor: str('who wrote it: a grant `name:role`, `token-2`, `admin-token`, `callback`, `scheduler`'),
        schema_version: int(undefined, { minimum: 0 }),
      },
      additionalProperties: true,
    },
    recorded_at: dateTime(),
  },
  { description: "One event of an agent's stream (audit reads; the data of an events/stream frame)." },
);

const change = object(
  {
    agent_id: str(),
    revision: decimal('agent stream revision'),
    position: decimal('global store position (also the frame id)'),
    type: str(),
  },
  { description: 'The data of a `change` frame of GET /v1/changes.' },
);

const openTurn = object({ turn_id: str(), lease_expires_at: dateTime() });
const agentOverview = object({
  agent_id: str(),
  posture: postureSchema(),
  registered_at: nullable(dateTime()),
  revision: nullable(decimal('agent stream revision of the scheduler state; null before the first projection')),
  projected_at: nullable(dateTime()),
  current_work_item: nullable(
    object({
      id: str(),
      objective: str(),
      readiness: str(),
      current_todo: nullable(ref('TodoItem')),
      blocked_by: nullable(str()),
    }),
  ),
  candidate_counts: countsOf(CANDIDATE_CLASSES),
  work_item_counts: agentSummaryFields.work_item_counts,
  queued_messages: count(),
  active_intents: count(),
  triggered_intents: count(),
  scheduled_timers: count(),
  active_tasks: count(),
  open_turn: nullable(openTurn),
  last_decision: nullable(ref('Decision')),
});

const attentionItem = object({
  agent_id: str(),
  waiting_since: dateTime(),
  reasons: arrayOf(oneOfStrings(['needs_input', 'operator_wait'])),
  operator_waits: arrayOf(
    object({
      id: str(),
      reason: str(),
      created_at: dateTime(),
      trigger_count: count(),
      last_triggered_at: nullable(dateTime()),
    }),
  ),
  work_item: ref('WorkItem'),
});

const board = object({
  agent_id: str(),
  revision: decimal(),
  projected_at: dateTime(),
  columns: arrayOf(
    object({ candidate_class: oneOfStrings(CANDIDATE_CLASSES), total: count(), items: arrayOf(ref('WorkItem')) }),
    'the candidate classes in scheduler order',
  ),
});

const stalledAt = object({
  position: decimal(),
  event_id: str(),
  stream: str(),
  revision: decimal(),
  type: str(),
  error: str(),
  attempts: count(),
  since: dateTime(),
  last_attempt_at: dateTime(),
});

const projectionStatus = object({
  name: str(),
  status: oneOfStrings(['ok', 'stalled']),
  checkpoint: checkpoint('position of the last event applied (-1: none yet)'),
  head: nullable(decimal('the store head; null for an empty store')),
  lag: nullable(decimal('head - checkpoint')),
  updated_at: nullable(dateTime()),
  stalled_at: nullable(stalledAt, 'the first open dead letter'),
});

const deadLetter = object({
  position: decimal(),
  event_id: str(),
  stream: str(),
  revision: decimal(),
  type: str(),
  error: str(),
  attempts: count(),
  since: dateTime(),
  last_attempt_at: dateTime(),
  state: oneOfStrings(['open', 'applied', 'skipped']),
  resolved_at: nullable(dateTime()),
  resolved_by: nullable(str()),
  reason: nullable(str()),
  actions: arrayOf(
    object({
      action: str(),
      actor: str(),
      reason: nullable(str()),
      outcome: str(),
      error: nullable(str()),
      at: dateTime(),
    }),
  ),
});

const projectionHealth = {
  projection: str(),
  checkpoint: checkpoint(),
  head: nullable(decimal()),
  caught_up: bool(),
  stalled_at: nullable(decimal('position of the first open dead letter')),
  parked_agents: count(),
};
const checks = {
  type: 'object',
  additionalProperties: oneOfStrings(['up', 'down']),
  description: 'event_store and postgres',
} satisfies SchemaObject;

export const READ_SCHEMAS = {
  AuditEvent: auditEvent,
  AuditEventPage: object({
    items: arrayOf(ref('AuditEvent'), 'ascending'),
    next_after: nullable(decimal('the last revision returned (or the given `after`); null: nothing from the start')),
  }),
  Change: change,
  AgentOverviewList: listOf(agentOverview),
  AttentionList: listOf(attentionItem),
  AgentBoard: board,
  WorkItemHistory: listOf(
    ref('AuditEvent'),
    "the item's events and those of its intents, tasks, messages, turns, timers",
  ),
  ProjectionStatusList: listOf(projectionStatus),
  RebuildResult: object({
    projection: str(),
    events: count(),
    duration_ms: count(),
    events_per_s: num(),
  }),
  DeadLetterReport: object({
    projection: str(),
    letters: arrayOf(deadLetter),
    parked_agents: arrayOf(
      object({
        agent_id: str(),
        stream: str(),
        letter_position: decimal(),
        from_revision: decimal(),
        parked_at: dateTime(),
      }),
    ),
  }),
  DeadLetterResolution: object({
    projection: str(),
    position: decimal(),
    action: oneOfStrings(['skip', 'retry']),
    outcome: oneOfStrings(['applied', 'skipped', 'failed']),
    actor: str(),
    reason: nullable(str()),
    held_applied: count("the agent's held events applied after the letter"),
    parked_at: nullable(object({ position: decimal(), error: str() }), 'where the agent stays parked'),
  }),
  RefusalList: listOf(
    object({
      id: decimal('the row id: newer rows have larger ids'),
      at: dateTime(),
      actor: str('the token name (`name:role`, `admin-token`, `callback`), never the secret'),
      route: str('the operation: CreateWorkItem, TriggerWaitingIntent, Control...'),
      agent_id: nullable(str()),
      code: str('the wire error code, or no_op (a control that changed nothing)'),
      reason: str('details.reason, rule or status of the refusal, else the code'),
      message: str(),
    }),
    'newest first',
  ),
  HealthReport: object({
    status: oneOfStrings(['ok']),
    checks,
    projection_lag: nullable(object(projectionHealth)),
  }),
  HealthLive: object({ status: oneOfStrings(['ok']) }),
  HealthReady: object({
    status: oneOfStrings(['ok']),
    checks,
    projection_lag: nullable(object(projectionHealth), 'null here: see projections'),
    projections: arrayOf(
      object({
        ...projectionHealth,
        ready: bool(),
        reason: nullable(oneOfStrings(['projection_stalled', 'projection_lagging'])),
        idle_seconds: count('seconds since the checkpoint last moved'),
      }),
    ),
  }),
} satisfies Record<string, SchemaObject>;
