import type { AgentState } from '../agent/agent.state';
import type { MessageRecord } from '../queue/message.state';
import { compareInstants } from '../shared/time';
import { queuedMessagesInOrder } from '../views/message.view';
import { plainDecision, type SchedulerDecision } from './decision';
import { classifyMessage } from './message-classification';
import {
  type CompiledSettings,
  compiledSettings,
  DEFAULT_SCHEDULER_SETTINGS,
  type SchedulerSettings,
} from './scheduler-settings';
import { addMs } from '../timer/timer.time';
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
function openTurnRung(state: AgentState, now: string, leaseTtlMs: number | null): SchedulerDecision | null {
  if (state.open_turn_id === null) return null;
  const turn = state.turns.get(state.open_turn_id);
  const evidence = [`open_turn:${state.open_turn_id}`];
  if (turn) {
    evidence.push(`message:${turn.message_id}`);
    const expiresAt =
      leaseTtlMs === null ? turn.lease_expires_at : addMs(turn.last_heartbeat_at ?? turn.started_at, leaseTtlMs);
    if (compareInstants(expiresAt, now) <= 0) evidence.push('lease_expired');
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

/** The rules of the ladder (docs/domain-contract.md §5), by name. */
export type LadderRule =
  | 'gate'
  | 'open_turn'
  | 'queue_head'
  | 'wake_hint'
  | 'continue_active'
  | 'triggered_review'
  | 'queued_available'
  | 'work_item_recheck'
  | 'waits'
  | 'idle';

/** One rung: its number in the docs' ladder, its rule, and how it decides (null: it does not apply). */
export type LadderRung = {
  readonly rung: number;
  readonly rule: LadderRule;
  readonly evaluate: (state: AgentState, now: string, suppressed: Suppressed) => SchedulerDecision | null;
};

function buildLadder(c: CompiledSettings): readonly LadderRung[] {
  const workQueue: Record<CompiledSettings['work_queue_order'][number], LadderRung> = {
    continue_active: { rung: 5, rule: 'continue_active', evaluate: (s, _, sup) => continueActiveRung(s, sup) },
    triggered_review: { rung: 6, rule: 'triggered_review', evaluate: (s, _, sup) => triggeredReviewRung(s, sup, c) },
    queued_available: { rung: 7, rule: 'queued_available', evaluate: (s, _, sup) => queuedAvailableRung(s, sup, c) },
    work_item_recheck: { rung: 8, rule: 'work_item_recheck', evaluate: (s, now, sup) => recheckRung(s, now, sup, c) },
  };
  return [
    { rung: 1, rule: 'gate', evaluate: (s) => gateRung(s) },
    { rung: 2, rule: 'open_turn', evaluate: (s, now) => openTurnRung(s, now, c.settings.lease_ttl_ms) },
    { rung: 3, rule: 'queue_head', evaluate: (s) => queueRung(s) },
    { rung: 4, rule: 'wake_hint', evaluate: (s, _, sup) => wakeHintRung(s, sup) },
    ...c.work_queue_order.map((rung) => workQueue[rung]),
    { rung: 9, rule: 'waits', evaluate: (s) => waitRung(s, c) },
    { rung: 10, rule: 'idle', evaluate: (s) => idleRung(s, c) },
  ];
}

const ladders = new WeakMap<CompiledSettings, readonly LadderRung[]>();

/** The ladder for these settings, in the order it is climbed (rungs 5 to 8 ordered by the ranking). */
export function schedulerLadder(settings: SchedulerSettings = DEFAULT_SCHEDULER_SETTINGS): readonly LadderRung[] {
  const c = compiledSettings(settings);
  let ladder = ladders.get(c);
  if (ladder === undefined) {
    ladder = buildLadder(c);
    ladders.set(c, ladder);
  }
  return ladder;
}

function decideUnguarded(state: AgentState, now: string, settings: SchedulerSettings): SchedulerDecision {
  const suppressed: Suppressed = [];
  for (const rung of schedulerLadder(settings)) {
    const decision = rung.evaluate(state, now, suppressed);
    if (decision) return withSuppressed(decision, suppressed);
  }
  /* istanbul ignore next: the idle rung always decides */
  throw new Error('the ladder ended without a decision');
}

/**
 * The scheduler (docs/domain-contract.md §5): pure, deterministic and total. `state` is the agent's folded state
 * (its own scheduler projection); `now` matters only for due rechecks and lease evidence; `settings`
 * (docs/decisions/0037) are the runtime's defaults unless a what-if asks for others. A state
 * that breaks the record invariants still yields a decision: Noop `projection_invalid`.
 */
export function decideNextAction(
  state: AgentState,
  now: string,
  settings: SchedulerSettings = DEFAULT_SCHEDULER_SETTINGS,
): SchedulerDecision {
  try {
    return decideUnguarded(state, now, settings);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return plainDecision('Noop', 'projection_invalid', [`error:${message}`]);
  }
}
