import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import { type DecisionRecord, type SchedulerDecision, toDecisionRecord } from '../scheduler/decision';
import type { EmitSystemTick, RecordDecision, ReduceMessage } from '../scheduler/scheduler.commands';
import type { SystemTickEmitted } from '../scheduler/scheduler.events';
import type { Warning } from '../shared/warnings';
import type { ContextProjection } from '../views/context';
import { type DecisionView, toDecisionView } from '../views/decision.view';
import { found } from './found';
import { messageView, type MessageView } from '../views/message.view';
import { type ActivationTurnView, toActivationTurnView } from '../views/turn.view';

// Reply bodies without `revision` (the app adds it).
export type RecordDecisionReply = { decision: DecisionView; recorded: boolean; warnings: Warning[] };
export type EmitSystemTickReply = { idempotency_key: string | null; emitted: boolean; message: MessageView | null; warnings: Warning[] };
export type ReduceMessageReply = { message: MessageView; reduced: boolean; warnings: Warning[] };
/** API.md activation reply: the decision, and for a StartModelTurn the opened turn, its message and the context. */
export type ActivationReply = { decision: DecisionView; turn?: ActivationTurnView; message?: MessageView; context?: ContextProjection };

export function renderRecordDecisionReply(command: RecordDecision, _b: AgentState, _a: AgentState, newEvents: readonly AgentEvent[]): RecordDecisionReply {
  const at = command.data.at ?? command.meta.now;
  return { decision: toDecisionView(command.data.decision, at), recorded: newEvents.some((e) => e.type === 'SchedulerDecisionRecorded'), warnings: [] };
}

/** A key already emitted is `emitted: false` (the other worker's tick stands). */
export function renderEmitSystemTickReply(command: EmitSystemTick, _b: AgentState, after: AgentState, newEvents: readonly AgentEvent[]): EmitSystemTickReply {
  const emitted = newEvents.find((e): e is SystemTickEmitted => e.type === 'SystemTickEmitted');
  return {
    idempotency_key: toDecisionRecord(command.data.decision).idempotency_key,
    emitted: emitted !== undefined,
    message: emitted ? messageView(after, emitted.data.message_id) : null,
    warnings: [],
  };
}

export function renderReduceMessageReply(command: ReduceMessage, _b: AgentState, after: AgentState, newEvents: readonly AgentEvent[]): ReduceMessageReply {
  const id = command.data.message_id;
  return { message: found(messageView(after, id), 'message', id), reduced: newEvents.some((e) => e.type === 'MessageProcessed'), warnings: [] };
}

export type ActivationInput = {
  decision: SchedulerDecision | DecisionRecord;
  recorded_at: string;
  /** The state after the activation's writes (the StartTurn, when there was one). */
  after: AgentState;
  /** The turn the activation opened, if any. */
  turn_id?: string | null;
  context?: ContextProjection;
};

/** The activation reply: the decision always; the turn, its message and the context only when a turn was opened. */
export function renderActivationReply(input: ActivationInput): ActivationReply {
  const decision = toDecisionView(input.decision, input.recorded_at);
  const turn = input.turn_id ? input.after.turns.get(input.turn_id) : undefined;
  if (turn === undefined) return { decision };
  return {
    decision, turn: toActivationTurnView(turn),
    message: found(messageView(input.after, turn.message_id), 'message', turn.message_id),
    ...(input.context !== undefined && { context: input.context }),
  };
}
