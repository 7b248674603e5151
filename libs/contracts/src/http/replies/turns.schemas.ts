import {
  type ActivationTurnView,
  type BriefView,
  DECISION_KINDS,
  type DecisionView,
  type DeliverySummaryView,
  type Promotion,
  type RoundView,
  TERMINAL_KINDS,
  type TurnView,
} from '@app/domain';
import {
  arrayOf,
  bool,
  dateTime,
  int,
  nullable,
  object,
  oneOfStrings,
  ref,
  type SchemaObject,
  shapeOf,
  str,
  stringArray,
} from './schema';
import { BRIEF_KINDS, recoverySchema } from './views.schemas';

// Decisions, turns, rounds, briefs and delivery summaries: what the host and the scheduler record.

const decision = shapeOf<DecisionView>()(
  {
    kind: oneOfStrings(DECISION_KINDS),
    reason: str(),
    model_reentry: bool(),
    liveness_only: bool(),
    message_id: nullable(str()),
    work_item_id: nullable(str()),
    task_id: nullable(str()),
    idempotency_key: nullable(str()),
    evidence: stringArray(),
    recorded_at: nullable(dateTime('when it was recorded (computed, for a next_decision)')),
    closure: ref('Closure'),
  },
  {
    optional: ['closure'],
    description:
      'A scheduler decision; links are null when absent. `closure`: the agent closure on the state it was decided on (absent on decisions projected before closure existed).',
  },
);

const brief = shapeOf<BriefView>()({
  id: str(),
  kind: oneOfStrings(BRIEF_KINDS),
  text: str(),
  work_item_id: nullable(str()),
  created_at: dateTime(),
});

const deliverySummary = shapeOf<DeliverySummaryView>()({
  id: str(),
  work_item_id: str(),
  text: str(),
  created_at: dateTime(),
  turn_id: nullable(str()),
  round_id: nullable(str()),
  evidence: object({
    source: oneOfStrings(['report_promotion']),
    warnings: arrayOf(ref('Warning')),
    tool_call_ids: stringArray(),
  }),
});

const activationTurn = shapeOf<ActivationTurnView>()({
  turn_id: str(),
  turn_index: int(undefined, { minimum: 0 }),
  lease_expires_at: dateTime(),
  work_item_id: nullable(str()),
});

const promotion = shapeOf<Promotion>()({ work_item_id: str(), delivery_summary_id: str(), brief_id: str() });

const turn = shapeOf<TurnView>()({
  turn_id: str(),
  turn_index: int(undefined, { minimum: 0 }),
  message_id: str(),
  work_item_id: nullable(str()),
  work_item_revision: nullable(int(undefined, { minimum: 0 })),
  status: oneOfStrings(['open', 'closed']),
  started_at: dateTime(),
  lease_ttl_ms: int(undefined, { minimum: 0 }),
  lease_expires_at: dateTime(),
  last_heartbeat_at: nullable(dateTime()),
  round_ids: stringArray(),
  open_round_id: nullable(str()),
  promoted_round_ids: stringArray(),
  terminal: nullable(
    object({ terminal_kind: oneOfStrings(TERMINAL_KINDS), last_assistant_message: nullable(str()), at: dateTime() }),
  ),
  recovery: recoverySchema(),
});

const toolCall = object({ tool_call_id: str(), name: str() });

const round = shapeOf<RoundView>()({
  round_id: str(),
  turn_id: str(),
  work_item_id: nullable(str()),
  text: str("trimmed; '' when the round had no text"),
  tool_calls: arrayOf(toolCall),
  status: oneOfStrings(['open', 'closed']),
  completions: arrayOf(
    object({
      work_item_id: str(),
      focused: bool(),
      unfinished_todo_count: int(undefined, { minimum: 0 }),
      pending_todo_count: int(undefined, { minimum: 0 }),
      in_progress_todo_count: int(undefined, { minimum: 0 }),
      at: dateTime(),
    }),
  ),
  promotion: nullable(ref('Promotion')),
  warnings: arrayOf(ref('Warning')),
  recorded_at: dateTime(),
  closed_at: nullable(dateTime()),
});

export const TURN_SCHEMAS = {
  Decision: decision,
  Brief: brief,
  DeliverySummary: deliverySummary,
  ActivationTurn: activationTurn,
  Promotion: promotion,
  Turn: turn,
  Round: round,
} satisfies Record<string, SchemaObject>;
