import {
  type CandidateContent,
  type CompletedContent,
  type ContextMessage,
  type ContextProjection,
  type CurrentItemContent,
  MESSAGE_AUTHORITIES,
  MESSAGE_KINDS,
  MESSAGE_PRIORITIES,
  PLAN_STATUSES,
  RENDER_AS_BY_AUTHORITY,
  type SchedulerProjection,
} from '@app/domain';
import {
  arrayOf,
  bool,
  checkpoint,
  dateTime,
  decimal,
  extend,
  int,
  nullable,
  object,
  oneOfStrings,
  ref,
  type Schema,
  type SchemaObject,
  shapeOf,
  str,
  stringArray,
} from './schema';
import { remindersSchema, runtimePostureSchema } from './closure.schemas';
import { CANDIDATE_CLASSES, postureSchema, READINESS } from './views.schemas';

// GET state (the scheduler projection) and GET context (the context projection).

const count = (description?: string) => int(description, { minimum: 0 });
const countsOf = (keys: readonly string[]) => object(Object.fromEntries(keys.map((key) => [key, count()])));

const CURRENT_SECTIONS = ['turn_work_item', 'current_work_item'];
const CANDIDATE_SECTIONS = ['triggered_candidates', 'queued_runnable', 'waiting_for_operator', 'blocked'];
const SECTION_NAMES = [...CURRENT_SECTIONS, ...CANDIDATE_SECTIONS, 'queued_messages', 'recently_completed'];

const contextIntent = object({
  id: str(),
  wake: str(),
  reason: str(),
  resource: nullable(str()),
  condition: nullable(str()),
  triggered: bool(),
  trigger_count: count(),
  last_triggered_at: nullable(dateTime()),
});

const currentItemContent = shapeOf<CurrentItemContent>()({
  id: str(),
  objective: str(),
  readiness: oneOfStrings(READINESS),
  plan_status: oneOfStrings(PLAN_STATUSES),
  focus_mode: oneOfStrings(['runnable', 'inspection']),
  revision: count(),
  plan_artifact: ref('PlanArtifact'),
  todo_list: arrayOf(ref('TodoItem')),
  current_todo: nullable(ref('TodoItem')),
  blocked_by: nullable(str()),
  recheck_at: nullable(dateTime()),
  waiting_intents: arrayOf(contextIntent),
  process_trace: object({
    rounds: arrayOf(
      object({
        round_id: str(),
        turn_id: str(),
        text: str(),
        tool_calls: arrayOf(object({ tool_call_id: str(), name: str() })),
        recorded_at: dateTime(),
      }),
    ),
    briefs: arrayOf(object({ id: str(), kind: str(), text: str(), created_at: dateTime() })),
  }),
});

const candidateContent = shapeOf<CandidateContent>()(
  {
    id: str(),
    objective: str(),
    readiness: oneOfStrings(READINESS),
    plan_status: oneOfStrings(PLAN_STATUSES),
    current_todo: nullable(ref('TodoItem')),
    blocked_by: nullable(str()),
    plan_preview: str(),
    trigger_count: count(),
    last_triggered_at: nullable(dateTime()),
  },
  { optional: ['trigger_count', 'last_triggered_at'] },
);

const completedContent = shapeOf<CompletedContent>()({
  id: str(),
  objective: str(),
  completed_at: nullable(dateTime()),
  report: str(),
});

const queuedMessageContent = shapeOf<ContextMessage>()({
  id: str(),
  kind: oneOfStrings(MESSAGE_KINDS),
  priority: oneOfStrings(MESSAGE_PRIORITIES),
  authority: oneOfStrings(MESSAGE_AUTHORITIES),
  render_as: oneOfStrings(
    [...new Set(Object.values(RENDER_AS_BY_AUTHORITY))],
    'instruction only for operator_instruction: a host shows the rest as evidence, never as instructions',
  ),
  origin: str(),
  work_item_id: nullable(str()),
  task_id: nullable(str()),
  created_at: dateTime(),
  body_preview: str('the text body, or a JSON body serialised, cut at 500 characters'),
  body_complete: bool('the preview is the whole body'),
});

const counted = (item: Schema) => object({ count: count(), items: arrayOf(item) });
const section = (names: string[], content: Schema) =>
  object({ name: oneOfStrings(names), content, text: str(), estimated_tokens: count() });

const contextProjection = shapeOf<ContextProjection>()(
  {
    budget_tokens: count(),
    estimated_tokens: count('ceil(characters / 4) of `text`'),
    sections: arrayOf(
      {
        oneOf: [
          section(CURRENT_SECTIONS, nullable(currentItemContent)),
          section(CANDIDATE_SECTIONS, counted(candidateContent)),
          section(['queued_messages'], counted(queuedMessageContent)),
          section(['recently_completed'], counted(completedContent)),
        ],
      },
      'in priority order',
    ),
    omitted_sections: arrayOf(
      oneOfStrings(SECTION_NAMES),
      'cut from the end under pressure, in the order they were cut',
    ),
    trimmed_trace_entries: count(),
    truncated: bool(),
    over_budget: bool('even the current item alone does not fit (it is never cut)'),
    text: str('the rendered context'),
    reminders: remindersSchema(
      'what looks stale (rounds without a work-item change, stale todos, unfinished todos at completion)',
    ),
  },
  { description: 'The context projection of an agent (GET context, activations).' },
);

const schedulerProjectionFields = shapeOf<SchedulerProjection>()({
  agent_id: nullable(str()),
  posture: postureSchema(),
  version: count('events folded (= stream revision + 1)'),
  turn_index: count(),
  current_work_item: nullable(
    object({
      id: str(),
      revision: count(),
      readiness: oneOfStrings(READINESS),
      scheduling_state: str(),
      continue_active_key: str(),
      continue_active_consumed: bool(),
    }),
  ),
  open_turn: nullable(
    object({
      turn_id: str(),
      turn_index: count(),
      message_id: str(),
      work_item_id: nullable(str()),
      lease_expires_at: dateTime(),
      lease_expired: bool(),
      open_round_id: nullable(str()),
    }),
  ),
  queue: object({
    count: count(),
    by_priority: countsOf(MESSAGE_PRIORITIES),
    head: nullable(
      object({
        message_id: str(),
        kind: str(),
        priority: oneOfStrings(MESSAGE_PRIORITIES),
        model_reentry: bool(),
        reason: str(),
      }),
    ),
  }),
  replay_message_ids: stringArray('queued and dequeued messages, in scheduler order'),
  counts: countsOf([
    ...CANDIDATE_CLASSES,
    'work_items',
    'open',
    'completed',
    'active_intents',
    'triggered_intents',
    'scheduled_timers',
    'active_tasks',
    'emitted_tick_keys',
    'briefs',
  ]),
  candidates: object(Object.fromEntries(CANDIDATE_CLASSES.map((c) => [c, stringArray()])), {
    description: 'item ids per candidate class, in ranking order',
  }),
  rechecks_due: arrayOf(
    object({ work_item_id: str(), recheck_at: dateTime(), idempotency_key: str(), consumed: bool() }),
  ),
  active_intents: arrayOf(
    object({
      id: str(),
      scope: str(),
      work_item_id: nullable(str()),
      wake: str(),
      resource: nullable(str()),
      trigger_count: count(),
      last_triggered_at: nullable(dateTime()),
    }),
  ),
  scheduled_timers: arrayOf(
    object({
      id: str(),
      fire_at: dateTime(),
      work_item_id: nullable(str()),
      intent_id: nullable(str()),
      due: bool(),
    }),
  ),
  active_tasks: arrayOf(
    object({ id: str(), kind: str(), status: str(), wait_policy: str(), work_item_id: nullable(str()) }),
  ),
  pending_wake_hint: nullable(
    object({
      source: str(),
      reason: str(),
      created_at: dateTime(),
      intent_id: nullable(str()),
      liveness_only: bool(),
      idempotency_key: str(),
    }),
  ),
  last_decision: nullable(ref('Decision')),
  last_turn_terminal: nullable(ref('LastTurnTerminal')),
  runtime_error: nullable(ref('RuntimeError')),
  runtime_posture: runtimePostureSchema(
    'the posture, or awaiting_task when the agent awaits a task and nothing else can run',
  ),
  closure: ref('Closure'),
});

const schedulerState = extend(
  schedulerProjectionFields,
  {
    revision: decimal('agent stream revision the projection is of'),
    projected_at: dateTime('the time the projection was computed at (time-derived flags are as of it)'),
    next_due_at: nullable(dateTime('when time alone next matters to this agent')),
    next_decision: ref('Decision'),
    projection_lag: object({
      checkpoint: checkpoint('the read models checkpoint (-1: none yet)'),
      head: nullable(decimal('the store head position; null for an empty store')),
      caught_up: bool(),
    }),
  },
  'The scheduler projection (from the read model), plus next_decision computed now on the agent events and the read models lag.',
);

export const STATE_SCHEMAS = {
  ContextProjection: contextProjection,
  SchedulerState: schedulerState,
} satisfies Record<string, SchemaObject>;
