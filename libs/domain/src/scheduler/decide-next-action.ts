import type { AgentState } from '../agent/agent.state';
import type { MessageRecord } from '../queue/message.state';
import { compareInstants } from '../shared/time';
import { queuedMessagesInOrder } from '../views/message.view';
import { plainDecision, type SchedulerDecision } from './decision';
import { classifyMessage } from './message-classification';
import { idleRung, waitRung } from './waits.rung';
import {
  continueActiveRung,
  queuedAvailableRung,
  recheckRung,
  type Suppressed,
  triggeredReviewRung,
  wakeHintRung,
} from './work-queue.rungs';

/** The evidence line of a skipped duplicate key (docs/domain-contract.md §5); the key itself follows on its own line. */
export const DUPLICATE_TICK_SUPPRESSED = 'duplicate_tick_suppressed';

/** Rung 3 for one message: StartModelTurn when it warrants model re-entry, else ReduceMessageOnly. */
function messageDecision(state: AgentState, message: MessageRecord, extra: string[] = []): SchedulerDecision {
  const cls = classifyMessage(state, message);
  const links = {
    message_id: message.id,
    ...(message.work_item_id !== null && { work_item_id: message.work_item_id }),
    ...(message.task_id !== null && { task_id: message.task_id }),
  };
  const evidence = [
    ...extra,
    `message:${message.id}`,
    `message_kind:${message.kind}`,
    `priority:${message.priority}`,
    `${cls.model_reentry ? 'model_reentry' : 'liveness_only'}:${cls.reason}`,
    ...cls.evidence,
    `queued_messages:${state.queue.length}`,
  ];
  return cls.model_reentry
    ? { kind: 'StartModelTurn', reason: cls.reason, model_reentry: true, liveness_only: false, ...links, evidence }
    : { kind: 'ReduceMessageOnly', reason: cls.reason, model_reentry: false, liveness_only: true, ...links, evidence };
}

/** Rung 1: stopped is the hard gate; paused only lets reduce-only messages through. */
function gateRung(state: AgentState): SchedulerDecision | null {
  if (state.agent_id === null) return plainDecision('Noop', 'agent_not_registered', [`posture:${state.posture}`]);
  if (state.posture === 'stopped')
    return plainDecision('Stop', 'stopped', ['posture:stopped', `queued_messages:${state.queue.length}`]);
  if (state.posture !== 'paused') return null;
  const reducible = queuedMessagesInOrder(state).find((message) => !classifyMessage(state, message).model_reentry);
  if (reducible) return messageDecision(state, reducible, ['posture:paused']);
  return plainDecision('Noop', 'paused', ['posture:paused', `queued_messages:${state.queue.length}`]);
}

/**
 * Rung 2: one open turn per agent. An expired lease is evidence (the worker then issues
 * ExpireLease); the lease time itself is not, so heartbeats do not make a new decision.
 */
function openTurnRung(state: AgentState, now: string): SchedulerDecision | null {
  if (state.open_turn_id === null) return null;
  const turn = state.turns.get(state.open_turn_id);
  const evidence = [`open_turn:${state.open_turn_id}`];
  if (turn) {
    evidence.push(`message:${turn.message_id}`);
    if (compareInstants(turn.lease_expires_at, now) <= 0) evidence.push('lease_expired');
  }
  const links = turn ? { message_id: turn.message_id, work_item_id: turn.work_item_id ?? undefined } : {};
  return plainDecision('Noop', 'turn_in_progress', evidence, links);
}

/** Rung 3: the head of the queue (highest band, oldest first). */
function queueRung(state: AgentState): SchedulerDecision | null {
  const head = queuedMessagesInOrder(state)[0];
  return head === undefined ? null : messageDecision(state, head);
}

/** Duplicate keys skipped on the way down are evidence of whatever decision wins. */
function withSuppressed(decision: SchedulerDecision, suppressed: Suppressed): SchedulerDecision {
  if (suppressed.length === 0) return decision;
  const lines = [DUPLICATE_TICK_SUPPRESSED, ...suppressed.map((key) => `tick_key_already_emitted:${key}`)];
  return { ...decision, evidence: [...decision.evidence, ...lines] };
}

function decideUnguarded(state: AgentState, now: string): SchedulerDecision {
  const first = gateRung(state) ?? openTurnRung(state, now) ?? queueRung(state);
  if (first) return first;
  const suppressed: Suppressed = [];
  const decision =
    wakeHintRung(state, suppressed) ??
    continueActiveRung(state, suppressed) ??
    triggeredReviewRung(state, suppressed) ??
    queuedAvailableRung(state, suppressed) ??
    recheckRung(state, now, suppressed) ??
    waitRung(state) ??
    idleRung(state);
  return withSuppressed(decision, suppressed);
}

/**
 * The scheduler (docs/domain-contract.md §5): pure, deterministic and total. `state` is the agent's folded state
 * (its own scheduler projection); `now` matters only for due rechecks and lease evidence. A state
 * that breaks the record invariants still yields a decision: Noop `projection_invalid`.
 */
export function decideNextAction(state: AgentState, now: string): SchedulerDecision {
  try {
    return decideUnguarded(state, now);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return plainDecision('Noop', 'projection_invalid', [`error:${message}`]);
  }
}
