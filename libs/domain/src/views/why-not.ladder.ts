import type { AgentState } from '../agent/agent.state';
import { type LadderRule, schedulerLadder } from '../scheduler/decide-next-action';
import { plainDecision, type SchedulerDecision } from '../scheduler/decision';
import { addMs } from '../timer/timer.time';
import { compiledSettings, type SchedulerSettings } from '../scheduler/scheduler-settings';
import { continueActiveKey, queuedAvailableKey, recheckKey, triggeredReviewKey } from '../scheduler/tick-keys';
import { classifyMessage } from '../scheduler/message-classification';
import { isEmitted, itemTriggerCount } from '../scheduler/work-queue.rungs';
import { compareInstants } from '../shared/time';
import type { WorkItem } from '../work-item/work-item.state';
import { candidateClassOf, rankedCandidates } from './candidates';
import { queuedMessagesInOrder } from './message.view';
import { activeIntentsFor } from './scheduling';

// The ladder half of the why-not view (views/why-not.ts): each rung evaluated on its own, the
// rung that would take the item, and what ranks before it there.

/** One rung as it stands now: whether it applies, what it would decide, whether that is about the item. */
export type WhyNotStep = {
  rung: number;
  rule: LadderRule;
  applies: boolean;
  kind: SchedulerDecision['kind'] | null;
  reason: string | null;
  work_item_id: string | null;
  concerns_item: boolean;
};

/** Where the item stands: the rung that would take it, its rank there (1-based) and out of how many. */
export type WhyNotStanding = {
  rung: number;
  rule: LadderRule;
  rank: number | null;
  of: number | null;
  /** The tick key the rung would emit for it, when the rung emits one. */
  tick_key: string | null;
  /** True when that key was already emitted (or consumed by a turn): the rung skips the item. */
  tick_emitted: boolean;
  /** Rung 8: when the recheck comes due (recheck_at plus the settings' delay), and whether it has. */
  recheck_due_at: string | null;
  recheck_due: boolean;
};

export type RankedBefore = {
  rung: number;
  rule: LadderRule;
  kind: 'agent' | 'turn' | 'message' | 'wake_hint' | 'work_item';
  id: string;
  why: string;
};

/** Every rung evaluated on its own (a rung that throws counts as `Noop projection_invalid`, as the scheduler answers). */
export function ladderSteps(state: AgentState, itemId: string, now: string, settings: SchedulerSettings): WhyNotStep[] {
  return schedulerLadder(settings).map((rung) => {
    let decision: SchedulerDecision | null;
    try {
      decision = rung.evaluate(state, now, []);
    } catch (error) {
      decision = plainDecision('Noop', 'projection_invalid', [`error:${String(error)}`]);
    }
    return {
      rung: rung.rung,
      rule: rung.rule,
      applies: decision !== null,
      kind: decision?.kind ?? null,
      reason: decision?.reason ?? null,
      work_item_id: decision?.work_item_id ?? null,
      concerns_item: decision?.work_item_id === itemId,
    };
  });
}

const standing = (
  rung: number,
  rule: LadderRule,
  state: AgentState,
  key: string | null = null,
  rank: number | null = null,
  of: number | null = null,
): WhyNotStanding => ({
  rung,
  rule,
  rank,
  of,
  tick_key: key,
  tick_emitted: key !== null && isEmitted(state, key),
  recheck_due_at: null,
  recheck_due: false,
});

const rankIn = (items: readonly { id: string }[], id: string) => items.findIndex((other) => other.id === id) + 1;

/** The rung that would take an open item: its turn, a message about it for the model, its class's rung, else waits or idle. */
export function standingOf(
  state: AgentState,
  item: WorkItem,
  settings: SchedulerSettings,
  now: string,
): WhyNotStanding {
  const c = compiledSettings(settings);
  const turn = state.open_turn_id === null ? undefined : state.turns.get(state.open_turn_id);
  if (turn?.work_item_id === item.id) return standing(2, 'open_turn', state);
  const messages = queuedMessagesInOrder(state);
  // Only a message that re-enters the model takes the item; a reduced one merely ranks before it.
  const message = messages.find((m) => m.work_item_id === item.id && classifyMessage(state, m).model_reentry);
  if (message) return standing(3, 'queue_head', state, null, rankIn(messages, message.id), messages.length);
  switch (candidateClassOf(state, item)) {
    case 'current_runnable':
      return standing(5, 'continue_active', state, continueActiveKey(item.id, item.revision));
    case 'triggered_blocked': {
      const ranked = rankedCandidates(state, 'triggered_blocked', c.keys.triggered_blocked);
      const key = triggeredReviewKey(item.id, itemTriggerCount(state, item.id));
      return standing(6, 'triggered_review', state, key, rankIn(ranked, item.id), ranked.length);
    }
    case 'queued_runnable': {
      const ranked = rankedCandidates(state, 'queued_runnable', c.keys.queued_runnable);
      const key = queuedAvailableKey(item.id, item.revision);
      return standing(7, 'queued_available', state, key, rankIn(ranked, item.id), ranked.length);
    }
    case 'blocked': {
      const dueAt = recheckDueAt(item, settings);
      if (dueAt !== null && settings.recheck.enabled) {
        const stand = standing(8, 'work_item_recheck', state, recheckKey(item.id, item.recheck_at!));
        return { ...stand, recheck_due_at: dueAt, recheck_due: compareInstants(dueAt, now) <= 0 };
      }
      const waits = activeIntentsFor(state, item.id).length > 0;
      return waits ? standing(9, 'waits', state) : standing(10, 'idle', state);
    }
    default:
      return standing(9, 'waits', state);
  }
}

/** When the item's recheck comes due under the settings (recheck_at plus the delay). */
export const recheckDueAt = (item: WorkItem, settings: SchedulerSettings): string | null =>
  item.recheck_at === null
    ? null
    : settings.recheck.delay_ms === 0
      ? item.recheck_at
      : addMs(item.recheck_at, settings.recheck.delay_ms);

/** Items of the item's own rung that the rung reaches first (surfaced ones are skipped by rungs 6 and 8). */
function aheadInRung(
  state: AgentState,
  item: WorkItem,
  stand: WhyNotStanding,
  settings: SchedulerSettings,
  now: string,
): RankedBefore[] {
  const c = compiledSettings(settings);
  const entry = (kind: RankedBefore['kind'], id: string, why: string): RankedBefore => ({
    rung: stand.rung,
    rule: stand.rule,
    kind,
    id,
    why,
  });
  if (stand.rule === 'queue_head') {
    const messages = queuedMessagesInOrder(state).slice(0, (stand.rank ?? 1) - 1);
    return messages.map((m) => entry('message', m.id, `queued before it (${m.kind}, ${m.priority})`));
  }
  if (stand.rule === 'triggered_review') {
    const ranked = rankedCandidates(state, 'triggered_blocked', c.keys.triggered_blocked);
    return ranked
      .slice(0, (stand.rank ?? 1) - 1)
      .filter((other) => !isEmitted(state, triggeredReviewKey(other.id, itemTriggerCount(state, other.id))))
      .map((other) => entry('work_item', other.id, 'triggered before it in the triggered_blocked order'));
  }
  if (stand.rule === 'queued_available') {
    const ranked = rankedCandidates(state, 'queued_runnable', c.keys.queued_runnable);
    return ranked
      .slice(0, (stand.rank ?? 1) - 1)
      .map((other) =>
        entry('work_item', other.id, 'before it in the queued_runnable order (rung 7 offers only the first)'),
      );
  }
  if (stand.rule === 'work_item_recheck') {
    const due = recheckDueAt(item, settings);
    return state.work_items
      .values()
      .filter((other) => other.id !== item.id && other.state === 'open' && candidateClassOf(state, other) === 'blocked')
      .filter((other) => {
        const at = recheckDueAt(other, settings);
        if (at === null || compareInstants(at, now) > 0 || (due !== null && compareInstants(at, due) > 0)) return false;
        return !isEmitted(state, recheckKey(other.id, other.recheck_at!));
      })
      .map((other) => entry('work_item', other.id, `its recheck came first (${other.recheck_at})`));
  }
  return [];
}

/** What an applying rung before the item's puts first, named. */
function subjectOf(state: AgentState, step: WhyNotStep): RankedBefore[] {
  const entry = (kind: RankedBefore['kind'], id: string, why: string): RankedBefore[] => [
    { rung: step.rung, rule: step.rule, kind, id, why },
  ];
  const decides = `${step.kind} ${step.reason}`;
  switch (step.rule) {
    case 'gate':
      return entry('agent', state.agent_id ?? '', `the agent's posture gates the ladder (${decides})`);
    case 'open_turn':
      return entry('turn', state.open_turn_id ?? '', 'one turn per agent: this turn runs');
    case 'queue_head':
      return queuedMessagesInOrder(state).map((m) => ({
        rung: step.rung,
        rule: step.rule,
        kind: 'message' as const,
        id: m.id,
        why: `a queued message is served first (${m.kind}, ${m.priority})`,
      }));
    case 'wake_hint':
      return entry('wake_hint', state.pending_wake_hint?.source ?? '', 'a pending wake hint is emitted first');
    default:
      return step.work_item_id === null ? [] : entry('work_item', step.work_item_id, `${decides} comes first`);
  }
}

/** Everything that ranks before the item: applying rungs climbed before its own, then its rivals on its own rung. */
export function ranksBefore(
  state: AgentState,
  item: WorkItem,
  stand: WhyNotStanding,
  steps: WhyNotStep[],
  settings: SchedulerSettings,
  now: string,
): RankedBefore[] {
  const own = steps.findIndex((step) => step.rule === stand.rule);
  const earlier = steps.slice(0, own).filter((step) => step.applies && step.rule !== 'waits' && step.rule !== 'idle');
  return [...earlier.flatMap((step) => subjectOf(state, step)), ...aheadInRung(state, item, stand, settings, now)];
}
