import type { AgentEvent } from '../agent/agent.events';
import { requireRecord, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { requireNewMessageId } from '../queue/message.validation';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError, validationFailed } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { requireTimestamp } from '../shared/validation';
import { decideNextAction } from './decide-next-action';
import {
  DECISION_KINDS,
  type DecisionRecord,
  EFFECTFUL_DECISION_KINDS,
  sameDecision,
  type SchedulerDecision,
  TICK_REASONS,
  type TickReason,
  toDecisionRecord,
} from './decision';
import type { EmitSystemTick, RecordDecision, ReduceMessage } from './scheduler.commands';
import type { AgentSlept, SchedulerDecisionRecorded } from './scheduler.events';
import { systemTickEvents } from './tick-messages';
import { isEmitted } from './work-queue.rungs';

function requireDecision(value: unknown): DecisionRecord {
  if (typeof value !== 'object' || value === null) throw validationFailed('decision', 'must_be_object');
  const decision = value as SchedulerDecision;
  if (!DECISION_KINDS.includes(decision.kind))
    throw validationFailed('decision.kind', 'invalid_enum', { allowed: DECISION_KINDS });
  return toDecisionRecord(decision);
}

/** The aggregate is the authority: a decision computed on an older state (a racing worker) is refused. */
function staleDecision(given: DecisionRecord, current: SchedulerDecision): DomainError {
  return new DomainError(
    'conflict',
    { rule: 'stale_decision', given_kind: given.kind, expected: toDecisionRecord(current) },
    `the scheduler now decides ${current.kind} (${current.reason}), not ${given.kind} (${given.reason})`,
  );
}

/**
 * RecordDecision: SchedulerDecisionRecorded when the decision has effects or differs from the
 * last recorded one (else nothing); a Sleep also moves the posture to asleep (AgentSlept); a tick
 * is emitted in the same append under `message_id` (required), so its key is recorded once.
 */
export function decideRecordDecision(command: RecordDecision, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const at = command.data.at === undefined ? now : requireTimestamp(command.data.at, 'at');
  const given = requireDecision(command.data.decision);
  const current = decideNextAction(state, at);
  if (!sameDecision(given, current)) throw staleDecision(given, current);
  const effectful = EFFECTFUL_DECISION_KINDS.includes(given.kind);
  if (!effectful && state.last_decision !== null && sameDecision(state.last_decision.decision, given)) return [];
  const recorded: SchedulerDecisionRecorded = {
    type: 'SchedulerDecisionRecorded',
    data: { agent_id: agentId, decision: given, at },
  };
  if (given.kind === 'EmitSystemTick') {
    return [recorded, ...tickOf(state, agentId, current, command.data.message_id, now)];
  }
  if (given.kind !== 'Sleep' || state.posture === 'asleep') return [recorded];
  const slept: AgentSlept = {
    type: 'AgentSlept',
    data: { agent_id: agentId, previous_posture: state.posture, posture: 'asleep', at: now },
  };
  return [recorded, slept];
}

function requireTick(decision: DecisionRecord): { reason: TickReason; key: string } {
  if (decision.kind !== 'EmitSystemTick')
    throw validationFailed('decision.kind', 'not_a_tick', { kind: decision.kind });
  if (!TICK_REASONS.includes(decision.reason as TickReason))
    throw validationFailed('decision.reason', 'invalid_enum', { allowed: TICK_REASONS });
  if (decision.idempotency_key === null) throw validationFailed('decision.idempotency_key', 'required');
  return { reason: decision.reason as TickReason, key: decision.idempotency_key };
}

/**
 * EmitSystemTick: [SystemTickEmitted, MessageQueued system_tick]. A key already emitted records
 * nothing (two racing workers emit one tick); a tick the scheduler would no longer emit is refused.
 */
export function decideEmitSystemTick(command: EmitSystemTick, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const given = requireDecision(command.data.decision);
  const { key } = requireTick(given);
  if (isEmitted(state, key)) return [];
  const current = decideNextAction(state, now);
  if (current.kind !== 'EmitSystemTick' || current.idempotency_key !== key) throw staleDecision(given, current);
  return tickOf(state, agentId, current, command.data.message_id, now);
}

/** The events of the tick `decision` (the current one), queued under a new message id. */
function tickOf(
  state: AgentState,
  agentId: string,
  decision: SchedulerDecision,
  messageId: unknown,
  now: string,
): AgentEvent[] {
  const tick = {
    reason: decision.reason as TickReason,
    idempotency_key: decision.idempotency_key!,
    work_item_id: decision.work_item_id ?? null,
    message_id: requireNewMessageId(state, messageId),
  };
  return systemTickEvents(state, agentId, tick, now);
}

/** ReduceMessage: the scheduler's ReduceMessageOnly carried out at once (dequeued and processed, no turn). */
export function decideReduceMessage(command: ReduceMessage, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const messageId = assertValidId(command.data.message_id, 'message_id');
  const message = requireRecord(state.messages, messageId, 'message');
  if (message.status === 'processed') return [];
  if (message.status !== 'queued') {
    throw new DomainError('invariant_violated', {
      rule: 'message_not_queued',
      message_id: messageId,
      status: message.status,
    });
  }
  const current = decideNextAction(state, now);
  if (current.kind !== 'ReduceMessageOnly' || current.message_id !== messageId) {
    throw staleDecision(
      toDecisionRecord({
        kind: 'ReduceMessageOnly',
        reason: 'requested',
        model_reentry: false,
        liveness_only: true,
        message_id: messageId,
        evidence: [],
      }),
      current,
    );
  }
  const data = { agent_id: agentId, message_id: messageId, turn_id: null, at: now };
  return [
    { type: 'MessageDequeued', data },
    { type: 'MessageProcessed', data },
  ];
}
