import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import { addMs } from '../timer/timer.time';
import { queuedRunnable, rankedCandidates } from '../views/candidates';
import { currentWorkItem, readinessOf } from '../views/scheduling';
import type { OpenWorkItem } from '../work-item/work-item.state';
import { type SchedulerDecision, type TickReason } from './decision';
import { type CompiledSettings, compiledSettings, DEFAULT_SCHEDULER_SETTINGS } from './scheduler-settings';
import { continueActiveKey, queuedAvailableKey, recheckKey, triggeredReviewKey, wakeHintKey } from './tick-keys';

// Rungs 4-8 of docs/domain-contract.md §5: ticks with idempotency keys. A key already emitted is skipped (the
// skip is recorded as evidence by the caller) and the scheduler moves on.

/** Collects the keys skipped as duplicates on the way down the ladder. */
export type Suppressed = string[];

export const isEmitted = (state: AgentState, key: string): boolean => state.emitted_tick_keys.has(key);

const DEFAULTS = compiledSettings(DEFAULT_SCHEDULER_SETTINGS);

function tick(
  reason: TickReason,
  key: string,
  evidence: string[],
  workItemId?: string,
  livenessOnly = false,
): SchedulerDecision {
  return {
    kind: 'EmitSystemTick',
    reason,
    model_reentry: false,
    liveness_only: livenessOnly,
    ...(workItemId !== undefined && { work_item_id: workItemId }),
    idempotency_key: key,
    evidence,
  };
}

/** Returns the tick unless its key was emitted before (then records the skip and returns null). */
function unlessEmitted(
  state: AgentState,
  suppressed: Suppressed,
  decision: SchedulerDecision,
): SchedulerDecision | null {
  const key = decision.idempotency_key ?? '';
  if (!isEmitted(state, key)) return decision;
  suppressed.push(key);
  return null;
}

/** Rung 4: a pending wake hint becomes a system tick (liveness only when it has no body). */
export function wakeHintRung(state: AgentState, suppressed: Suppressed): SchedulerDecision | null {
  const hint = state.pending_wake_hint;
  if (hint === null) return null;
  const evidence = [`pending_wake_hint:${hint.source}`, `wake_hint_created_at:${hint.created_at}`];
  if (hint.intent_id !== null) evidence.push(`intent:${hint.intent_id}`);
  const key = wakeHintKey(hint.source, hint.created_at);
  return unlessEmitted(state, suppressed, tick('wake_hint', key, evidence, undefined, hint.body === null));
}

/** Rung 5: the focus is runnable. */
export function continueActiveRung(state: AgentState, suppressed: Suppressed): SchedulerDecision | null {
  const item = currentWorkItem(state);
  if (item === null || item.state !== 'open' || readinessOf(state, item) !== 'runnable') return null;
  const evidence = [`current_work_item:${item.id}`, `revision:${item.revision}`, 'current_work_item_runnable'];
  return unlessEmitted(
    state,
    suppressed,
    tick('continue_active', continueActiveKey(item.id, item.revision), evidence, item.id),
  );
}

/** Every trigger an item's intents ever received (any status): it only grows, so a new trigger is a new key. */
export function itemTriggerCount(state: AgentState, workItemId: string): number {
  return state.waiting_intents
    .values()
    .filter((intent) => intent.work_item_id === workItemId)
    .reduce((sum, intent) => sum + intent.trigger_count, 0);
}

/** Rung 6: the first triggered blocked item (ranked) not yet surfaced for its trigger count. */
export function triggeredReviewRung(
  state: AgentState,
  suppressed: Suppressed,
  settings: CompiledSettings = DEFAULTS,
): SchedulerDecision | null {
  for (const item of rankedCandidates(state, 'triggered_blocked', settings.keys.triggered_blocked)) {
    const count = itemTriggerCount(state, item.id);
    const evidence = [`triggered_blocked:${item.id}`, `trigger_count:${count}`];
    const decision = unlessEmitted(
      state,
      suppressed,
      tick('triggered_review', triggeredReviewKey(item.id, count), evidence, item.id),
    );
    if (decision) return decision;
  }
  return null;
}

/** The head of the queued runnable items and their count, in the settings' order (the index's when declared). */
export function queuedHead(state: AgentState, settings: CompiledSettings = DEFAULTS) {
  if (settings.declared_keys.queued_runnable) return queuedRunnable(state);
  const queued = rankedCandidates(state, 'queued_runnable', settings.keys.queued_runnable);
  return { head: queued[0], count: queued.length };
}

/** Rung 7: the first queued runnable item (oldest-touched first). Only the first: if surfaced already, move on. */
export function queuedAvailableRung(
  state: AgentState,
  suppressed: Suppressed,
  settings: CompiledSettings = DEFAULTS,
): SchedulerDecision | null {
  const { head: first, count } = queuedHead(state, settings);
  if (first === undefined) return null;
  const evidence = [`queued_runnable:${first.id}`, `revision:${first.revision}`, `queued_runnable_count:${count}`];
  return unlessEmitted(
    state,
    suppressed,
    tick('queued_available', queuedAvailableKey(first.id, first.revision), evidence, first.id),
  );
}

/** Open blocked items whose recheck_at (plus the policy's delay) has come, soonest deadline first. */
export function dueRechecks(state: AgentState, now: string, delayMs = 0): OpenWorkItem[] {
  const due: OpenWorkItem[] = [];
  for (const id of state.scheduling_index.rechecks) {
    const item = state.work_items.get(id) as OpenWorkItem & { recheck_at: string };
    const dueAt = delayMs === 0 ? item.recheck_at : addMs(item.recheck_at, delayMs);
    if (compareInstants(dueAt, now) > 0) break;
    if (readinessOf(state, item) === 'blocked') due.push(item);
  }
  return due;
}

/** Rung 8: a blocked item's recheck_at is due; surfaced once per deadline. */
export function recheckRung(
  state: AgentState,
  now: string,
  suppressed: Suppressed,
  settings: CompiledSettings = DEFAULTS,
): SchedulerDecision | null {
  const { recheck } = settings.settings;
  if (!recheck.enabled) return null;
  for (const item of dueRechecks(state, now, recheck.delay_ms)) {
    const recheckAt = item.recheck_at ?? '';
    const evidence = [`recheck_due:${item.id}`, `recheck_at:${recheckAt}`];
    const decision = unlessEmitted(
      state,
      suppressed,
      tick('work_item_recheck', recheckKey(item.id, recheckAt), evidence, item.id),
    );
    if (decision) return decision;
  }
  return null;
}
