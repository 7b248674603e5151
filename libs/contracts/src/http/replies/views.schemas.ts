import {
  type AgentSummaryView,
  type BriefKind,
  type CandidateClass,
  type CompletionReport,
  DELIVERY_MODES,
  MESSAGE_AUTHORITIES,
  MESSAGE_KINDS,
  MESSAGE_PRIORITIES,
  type MessageStatus,
  type MessageView,
  type PlanArtifact,
  PLAN_STATUSES,
  type Posture,
  type Readiness,
  type RecoveryClassification,
  type SchedulingState,
  TASK_STATUSES,
  type TaskView,
  type TimerStatus,
  type TimerView,
  TODO_STATES,
  type TodoItem,
  type TriggerProvenance,
  type TriggerVia,
  WAIT_POLICIES,
  WAIT_SCOPES,
  WAIT_WAKES,
  type WaitingIntentCancelReason,
  type WaitingIntentResolveReason,
  type WaitingIntentStatus,
  type WaitingIntentView,
  type WakeHintDisposition,
  WORK_ITEM_LIST_FILTERS,
  type WorkItemView,
} from '@app/domain';
import {
  arrayOf,
  bool,
  dateTime,
  int,
  literalsOf,
  messageBody,
  nullable,
  object,
  oneOfStrings,
  ref,
  type SchemaObject,
  shapeOf,
  str,
} from './schema';

// The views every reply is made of (docs/api.md, "Reply shapes"), one component each.

export const POSTURES = literalsOf<Posture>()([
  'booting',
  'awake_idle',
  'awake_running',
  'asleep',
  'paused',
  'stopped',
]);
export const READINESS = literalsOf<Readiness>()(['runnable', 'waiting_for_operator', 'blocked', 'completed']);
const SCHEDULING_STATES = literalsOf<SchedulingState>()([
  'runnable',
  'waiting_operator',
  'waiting_task',
  'waiting_timer',
  'waiting_external',
  'blocked',
  'completed',
]);
export const CANDIDATE_CLASSES = literalsOf<CandidateClass>()([
  'current_runnable',
  'triggered_blocked',
  'queued_runnable',
  'waiting_for_operator',
  'blocked',
  'completed_recent',
]);
const MESSAGE_STATUSES = literalsOf<MessageStatus>()([
  'queued',
  'dequeued',
  'processed',
  'interjected',
  'aborted',
  'dropped',
]);
const INTENT_STATUSES = literalsOf<WaitingIntentStatus>()(['active', 'cancelled', 'resolved']);
const INTENT_END_REASONS = literalsOf<WaitingIntentCancelReason | WaitingIntentResolveReason>()([
  'wait_for_replaced',
  'blocker_cleared',
  'work_item_completed',
  'cancelled_by_caller',
  'task_result',
  'timer_fired',
]);
const TRIGGER_VIAS = literalsOf<TriggerVia>()(['api', 'callback', 'timer']);
const TIMER_STATUSES = literalsOf<TimerStatus>()(['scheduled', 'fired', 'cancelled']);
const RECOVERIES = literalsOf<RecoveryClassification>()(['requeued', 'quarantined']);
export const BRIEF_KINDS = literalsOf<BriefKind>()(['ack', 'result', 'failure']);
export const WAKE_HINT_DISPOSITIONS = literalsOf<WakeHintDisposition>()(['triggered', 'coalesced', 'ignored']);

export const postureSchema = (description?: string) => oneOfStrings(POSTURES, description);
export const recoverySchema = (description?: string) => nullable(oneOfStrings(RECOVERIES), description);

const todoItem = shapeOf<TodoItem>()({ text: str(), state: oneOfStrings(TODO_STATES) });

/** The domain's descriptor plus `path`, which every view adds under the answering replica's AGENT_HOME. */
const planArtifact = shapeOf<PlanArtifact & { path: string }>()(
  {
    path: str("absolute path of the plan file under this replica's AGENT_HOME"),
    relative_path: str('path under AGENT_HOME'),
    hash: str('`sha256:<hex>` of the file bytes'),
    byte_size: int(undefined, { minimum: 0 }),
    updated_at: dateTime(),
    preview: str('the first characters of the body'),
    preview_complete: bool('the preview is the whole body'),
  },
  { description: 'The descriptor of the plan file (GET .../plan reads the body).' },
);

const completionReport = shapeOf<CompletionReport>()(
  {
    text: str(),
    source: oneOfStrings(['result_summary', 'delivery_summary']),
    delivery_summary_id: str(),
  },
  { optional: ['delivery_summary_id'] },
);

const triggerProvenance = shapeOf<TriggerProvenance>()({
  source: str(),
  event_id: nullable(str()),
  via: oneOfStrings(TRIGGER_VIAS),
});

const waitingIntent = shapeOf<WaitingIntentView>()(
  {
    id: str(),
    scope: oneOfStrings(WAIT_SCOPES),
    work_item_id: nullable(str()),
    wake: oneOfStrings(WAIT_WAKES),
    reason: str(),
    source: nullable(str()),
    resource: nullable(str()),
    condition: nullable(str()),
    fire_at: nullable(dateTime()),
    delivery_mode: oneOfStrings(DELIVERY_MODES),
    status: oneOfStrings(INTENT_STATUSES),
    trigger_count: int(undefined, { minimum: 0 }),
    last_triggered_at: nullable(dateTime()),
    created_at: dateTime(),
    updated_at: dateTime(),
    timer_id: nullable(str()),
    last_trigger: nullable(ref('TriggerProvenance')),
    ended_at: nullable(dateTime()),
    end_reason: nullable(oneOfStrings(INTENT_END_REASONS)),
    triggered: bool('trigger_count > 0'),
    has_callback_token: bool('the token itself is returned once, by WaitFor'),
  },
  { description: 'A waiting intent; never its callback token or the token hash.' },
);

const workItem = shapeOf<WorkItemView>()(
  {
    id: str(),
    agent_id: str(),
    objective: str(),
    state: oneOfStrings(['open', 'completed']),
    plan_status: oneOfStrings(PLAN_STATUSES),
    blocked_by: nullable(str()),
    recheck_at: nullable(dateTime()),
    revision: int("the item's own revision (a counter, not the agent stream revision)", { minimum: 0 }),
    todo_list: arrayOf(ref('TodoItem')),
    current_todo: nullable(ref('TodoItem'), 'the first in_progress todo, else the first pending one'),
    plan_artifact: ref('PlanArtifact'),
    readiness: oneOfStrings(READINESS),
    scheduling_state: oneOfStrings(SCHEDULING_STATES),
    candidate_class: oneOfStrings(CANDIDATE_CLASSES),
    is_current: bool(),
    has_active_waits: bool(),
    has_triggered_waits: bool(),
    waiting_intents: arrayOf(ref('WaitingIntent'), 'its active intents, oldest first'),
    result_summary: nullable(str()),
    completion_report: nullable(ref('CompletionReport')),
    created_at: dateTime(),
    updated_at: dateTime(),
    completed_at: nullable(dateTime()),
    archived: {
      ...bool('present, true, only on an archived item (WorkItemsArchived): read by id or with filter=archived'),
      enum: [true],
    },
  },
  { optional: ['archived'], description: 'The work item view (every work item reply and list).' },
);

const message = shapeOf<MessageView>()({
  id: str(),
  kind: oneOfStrings(MESSAGE_KINDS),
  priority: oneOfStrings(MESSAGE_PRIORITIES),
  status: oneOfStrings(MESSAGE_STATUSES),
  work_item_id: nullable(str()),
  authority: oneOfStrings(MESSAGE_AUTHORITIES, 'set by the runtime, never by the caller'),
  origin: str(),
  body: messageBody(),
  task_id: nullable(str()),
  correlation_id: nullable(str()),
  causation_id: nullable(str()),
  liveness_only: bool('a tick with no content (a wake hint without body)'),
  seq: int('arrival order (FIFO within a priority band)', { minimum: 0 }),
  interrupt_count: int(undefined, { minimum: 0 }),
  created_at: dateTime(),
  updated_at: dateTime(),
});

const task = shapeOf<TaskView>()(
  {
    id: str(),
    kind: str(),
    status: oneOfStrings(TASK_STATUSES),
    wait_policy: oneOfStrings(WAIT_POLICIES),
    work_item_id: nullable(str()),
    summary: nullable(str()),
    detail: nullable(str()),
    created_at: dateTime(),
    updated_at: dateTime(),
    expected_duration_ms: nullable(int('the lease length; null: no lease', { minimum: 1000 })),
    lease_expires_at: nullable(dateTime()),
    last_heartbeat_at: nullable(dateTime()),
    interrupt_reason: nullable(oneOfStrings(['lease_expired'])),
    terminal: bool(),
    overdue: bool('lists only: active and past lease_expires_at (server clock)'),
  },
  { optional: ['overdue'] },
);

const timer = shapeOf<TimerView>()({
  id: str(),
  fire_at: dateTime('the next instant it is due (a fired one-shot timer: when it was due)'),
  status: oneOfStrings(TIMER_STATUSES),
  work_item_id: nullable(str()),
  interval_ms: nullable(int(undefined, { minimum: 1000 })),
  resume_text: nullable(str()),
  intent_id: nullable(str()),
  fire_count: int(undefined, { minimum: 0 }),
  last_fired_at: nullable(dateTime()),
  missed_periods: int('due periods of an interval timer skipped so far', { minimum: 0 }),
  created_at: dateTime(),
  updated_at: dateTime(),
  due: nullable(bool('scheduled and fire_at <= now (server clock); null when no clock was given')),
});

export const agentSummaryFields = {
  agent_id: str(),
  posture: postureSchema(),
  current_work_item_id: nullable(str()),
  registered_at: nullable(dateTime()),
  work_item_counts: object(
    Object.fromEntries(WORK_ITEM_LIST_FILTERS.map((filter) => [filter, int(undefined, { minimum: 0 })])),
    { description: 'work items per list filter' },
  ),
};
const agentSummary = shapeOf<AgentSummaryView>()(agentSummaryFields);

const warning: SchemaObject = {
  type: 'object',
  required: ['kind', 'message'],
  properties: {
    kind: str(
      'missing_pick_reason_for_runnable_focus_switch, unfinished_todos, stale_task_status_ignored, ' +
        'timer_already_due, missing_completion_report, completion_report_not_promoted_unfocused_completion, ' +
        'completion_report_not_promoted_multiple_completions, report_promotion_skipped_no_round; new kinds may appear',
    ),
    message: str(),
  },
  additionalProperties: true,
  description: 'A warning never refuses a command; extras depend on the kind.',
};

export const VIEW_SCHEMAS = {
  TodoItem: todoItem,
  PlanArtifact: planArtifact,
  CompletionReport: completionReport,
  TriggerProvenance: triggerProvenance,
  WaitingIntent: waitingIntent,
  WorkItem: workItem,
  Message: message,
  Task: task,
  Timer: timer,
  AgentSummary: agentSummary,
  Warning: warning,
} satisfies Record<string, SchemaObject>;
