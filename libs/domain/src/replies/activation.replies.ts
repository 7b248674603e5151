import type { AgentState } from '../agent/agent.state';
import type { DecisionRecord, SchedulerDecision } from '../scheduler/decision';
import type { ClosureView } from '../views/closure';
import type { ContextProjection } from '../views/context';
import { type DecisionView, toDecisionView } from '../views/decision.view';
import { found } from './found';
import { messageView, type MessageView } from '../views/message.view';
import { type ActivationTurnView, toActivationTurnView } from '../views/turn.view';

/** docs/api.md activation reply: the decision, and for a StartModelTurn the opened turn, its message and the context. */
export type ActivationReply = {
  decision: DecisionView;
  turn?: ActivationTurnView;
  message?: MessageView;
  context?: ContextProjection;
};

export type ActivationInput = {
  decision: SchedulerDecision | DecisionRecord;
  recorded_at: string;
  /** The state after the activation's writes (the StartTurn, when there was one). */
  after: AgentState;
  /** The turn the activation opened, if any. */
  turn_id?: string | null;
  context?: ContextProjection;
  /** The closure of the state the decision was decided on (shown with the decision). */
  closure?: ClosureView;
};

/** The activation reply: the decision always; the turn, its message and the context only when a turn was opened. */
export function renderActivationReply(input: ActivationInput): ActivationReply {
  const decision = toDecisionView(input.decision, input.recorded_at, input.closure);
  const turn = input.turn_id ? input.after.turns.get(input.turn_id) : undefined;
  if (turn === undefined) return { decision };
  return {
    decision,
    turn: toActivationTurnView(turn),
    message: found(messageView(input.after, turn.message_id), 'message', turn.message_id),
    ...(input.context !== undefined && { context: input.context }),
  };
}
