import {
  arrayOf,
  bool,
  dateTime,
  decimal,
  int,
  listOf,
  literal,
  nullable,
  object,
  oneOfStrings,
  ref,
  type Schema,
  type SchemaObject,
  str,
  extend,
} from './schema';
import { agentSummaryFields, postureSchema, recoverySchema, WAKE_HINT_DISPOSITIONS } from './views.schemas';
import { remindersSchema } from './closure.schemas';
import { TURN_SCHEMAS } from './turns.schemas';

// Command replies (every one carries `revision`, `position` and, except activations, `warnings`)
// and the lists and reads built from the views.

export const POSITION_DESCRIPTION =
  'read-your-writes: the store commit position of the last event of this command (for a command that wrote ' +
  "nothing, or a replayed one, of the agent's last event), a decimal string; pass it as `min_position` to a read " +
  'to see this write';

/** What every command reply adds to its own fields. */
export function commandReply(properties: Record<string, Schema>, optional: readonly string[] = []): SchemaObject {
  return object(
    {
      ...properties,
      revision: decimal('the agent stream revision after the command'),
      position: decimal(POSITION_DESCRIPTION),
    },
    { optional },
  );
}

const warnings = arrayOf(ref('Warning'), 'always an array');
const closedRound = object(
  { round_id: str(), promotion: nullable(ref('Promotion')), warnings },
  { description: 'the outcome of the previous round this command closed' },
);

const planVersion = object({
  hash: str('`sha256:<hex>`'),
  updated_at: dateTime(),
  byte_size: int(undefined, { minimum: 0 }),
});

export const COMMAND_SCHEMAS = {
  RegisterAgentReply: commandReply({ agent: ref('AgentSummary') }),
  WorkItemReply: commandReply({ work_item: ref('WorkItem'), warnings }),
  UpdateWorkItemReply: commandReply({
    work_item: ref('WorkItem'),
    focus_released: bool('the update released the focus (the item stopped being runnable)'),
    warnings,
  }),
  PickWorkItemReply: commandReply({
    current: ref('WorkItem'),
    previous: nullable(ref('WorkItem')),
    binding_note: str(),
    warnings,
  }),
  CompleteWorkItemReply: commandReply({
    work_item: ref('WorkItem'),
    completed_transition: bool('false when the item was already completed'),
    warnings,
  }),
  WaitForReply: commandReply(
    {
      waiting_intent: ref('WaitingIntent'),
      work_item: nullable(ref('WorkItem'), 'null at agent scope'),
      warnings,
      callback_token: str('an external wait only, once: the capability of POST /v1/callbacks/{callback_token}'),
    },
    ['callback_token'],
  ),
  TriggerReply: commandReply({
    waiting_intent: ref('WaitingIntent'),
    status: literal('triggered'),
    disposition: nullable(oneOfStrings(WAKE_HINT_DISPOSITIONS), 'the wake hint disposition (wake_hint delivery)'),
    message: nullable(ref('Message'), 'the callback_event or system_tick queued'),
    warnings,
  }),
  CancelWaitingIntentReply: commandReply({
    waiting_intent: ref('WaitingIntent'),
    cancelled: bool('false when it had already ended'),
    warnings,
  }),
  CallbackReply: commandReply({
    status: literal('triggered'),
    waiting_intent_id: str(),
    trigger_count: int(undefined, { minimum: 1 }),
    last_triggered_at: nullable(dateTime()),
    warnings,
  }),
  TimerReply: commandReply({ timer: ref('Timer'), warnings }),
  CancelTimerReply: commandReply({ timer: ref('Timer'), cancelled: bool(), warnings }),
  WakeHintReply: commandReply({
    disposition: oneOfStrings(WAKE_HINT_DISPOSITIONS),
    message: nullable(ref('Message')),
    warnings,
  }),
  TaskReply: commandReply({ task: ref('Task'), warnings }),
  MessageReply: commandReply({ message: ref('Message'), warnings }),
  DropMessageReply: commandReply({ message: ref('Message'), dropped: bool(), warnings }),
  ControlReply: commandReply({
    agent: ref('AgentSummary'),
    previous_posture: postureSchema(),
    posture: postureSchema(),
    changed: bool(),
    warnings,
  }),
  ArchiveWorkItemsReply: commandReply({
    agent_id: str(),
    completed_before: dateTime(),
    archived: bool('false when nothing was older than the cut-off (nothing recorded)'),
    work_item_ids: arrayOf(str(), 'the completed items that left the live state'),
    counts: object(
      Object.fromEntries(
        [
          'messages',
          'turns',
          'rounds',
          'briefs',
          'delivery_summaries',
          'emitted_tick_keys',
          'tasks',
          'timers',
          'waiting_intents',
        ].map((name) => [name, int(undefined, { minimum: 0 })]),
      ),
      { description: 'the other finished records older than the cut-off that left the live state with them' },
    ),
  }),
  ActivationReply: object(
    {
      decision: ref('Decision'),
      turn: ref('ActivationTurn'),
      message: ref('Message'),
      context: ref('ContextProjection'),
      revision: decimal('the agent stream revision after the activation'),
      position: decimal(POSITION_DESCRIPTION),
    },
    {
      optional: ['turn', 'message', 'context'],
      description:
        'One scheduler step: the decision; for StartModelTurn also the opened turn, its message and the context.',
    },
  ),
  TurnHeartbeatReply: commandReply({
    turn: ref('ActivationTurn'),
    posture: postureSchema(),
    cancel_requested: bool('after stop or pause: end the turn at the next round boundary'),
    interjections: arrayOf(ref('Message'), 'the interject operator prompts, now interjected'),
    warnings,
    reminders: remindersSchema(),
  }),
  RecordRoundReply: commandReply({
    round: ref('Round'),
    closed_round: nullable(closedRound),
    warnings,
    reminders: remindersSchema(),
  }),
  CloseRoundReply: commandReply({ promotion: nullable(ref('Promotion')), warnings, reminders: remindersSchema() }),
  TurnTerminalReply: commandReply({
    turn: ref('Turn'),
    message: nullable(ref('Message')),
    brief: nullable(ref('Brief')),
    closed_round: nullable(closedRound),
    recovery: recoverySchema(),
    warnings,
  }),

  AgentRead: object(
    { ...agentSummaryFields, revision: decimal('agent stream revision the summary is of') },
    { description: 'The agent summary (counts per list filter).' },
  ),
  WorkItemList: listOf(ref('WorkItem')),
  PlanVersionList: listOf(planVersion, 'the hashes the item events recorded, newest first'),
  WaitingIntentList: listOf(ref('WaitingIntent')),
  TimerList: listOf(ref('Timer')),
  TaskList: listOf(ref('Task')),
  MessageList: listOf(ref('Message')),
  DecisionItem: extend(TURN_SCHEMAS.Decision, {
    revision: decimal('stream revision of its SchedulerDecisionRecorded'),
  }),
  DecisionList: listOf(ref('DecisionItem')),
  BriefList: listOf(ref('Brief')),
  DeliverySummaryList: listOf(ref('DeliverySummary')),
} satisfies Record<string, SchemaObject>;
