import type { AgentState } from '../agent/agent.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import type { DecisionRecord } from '../scheduler/decision';
import { DEFAULT_SCHEDULER_SETTINGS, type SchedulerSettings } from '../scheduler/scheduler-settings';
import type { WorkItem } from '../work-item/work-item.state';
import { candidateClassOf } from './candidates';
import { type DecisionView, toDecisionView } from './decision.view';
import type { DeadLetterInput } from './closure';
import { readinessOf, schedulingStateOf } from './scheduling';
import {
  ladderSteps,
  type RankedBefore,
  ranksBefore,
  standingOf,
  type WhyNotStanding,
  type WhyNotStep,
} from './why-not.ladder';
import { blockersOf, nextEventsOf, type WhyNotBlocker, type WhyNotEvent } from './why-not.reasons';

/*
 * Why is this item not next (issue 19 item 5; docs/domain-contract.md §5, "Why not"): where the
 * item stands in the scheduler's ladder, what ranks before it, what holds it, and which event would
 * make it next. It extends the explanation view (views/explanation.ts): the rungs are the
 * scheduler's own (schedulerLadder), each evaluated on its own, so nothing is re-implemented.
 */

export type WhyNotVerdict =
  | 'next' // the decision now takes it (a tick for it, or a turn on a message about it)
  | 'in_turn' // the open turn works on it
  | 'held' // the agent's posture or a dead letter holds the whole ladder
  | 'waiting' // it waits: needs_input or an active wait
  | 'blocked' // blocked_by, with no wait (a recheck or an update frees it)
  | 'surfaced' // its tick was already emitted: the scheduler moved on until the item changes
  | 'ranked_behind' // it could be taken, but something ranks before it
  | 'completed'
  | 'archived';

export type WhyNotItem = Pick<
  WorkItem,
  'state' | 'revision' | 'plan_status' | 'blocked_by' | 'recheck_at' | 'objective'
> & {
  is_current: boolean;
  readiness: ReturnType<typeof readinessOf>;
  scheduling_state: ReturnType<typeof schedulingStateOf>;
  candidate_class: ReturnType<typeof candidateClassOf>;
};

export type WhyNot = {
  work_item_id: string;
  now: string;
  verdict: WhyNotVerdict;
  /** One sentence: the verdict, the first reason, and the first event that would help. */
  summary: string;
  /** The item as the scheduler sees it (null when archived: it left the live state). */
  item: WhyNotItem | null;
  /** The decision the scheduler takes now (decideNextAction; `recorded_at`: now, as for next_decision). */
  decision: DecisionView;
  /** The rung that would take the item (null for a completed or archived item). */
  standing: WhyNotStanding | null;
  /** Every rung in the order it is climbed: whether it applies now, and whether its decision is about the item. */
  ladder: WhyNotStep[];
  /** What ranks before the item (at most RANKS_BEFORE_SHOWN; the total beside). */
  ranks_before: RankedBefore[];
  ranks_before_total: number;
  blockers: WhyNotBlocker[];
  /** Events that would make it next (or move it up), the nearest first. */
  next_events: WhyNotEvent[];
};

/** Facts the application knows and the stream does not. */
export type WhyNotInputs = {
  /** The agent's open dead letter (a parked agent, ADR 0015). */
  dead_letter?: DeadLetterInput | null;
  /** The item left the live state by WorkItemsArchived (the read model or the stream says so). */
  archived?: boolean;
  settings?: SchedulerSettings;
};

export const RANKS_BEFORE_SHOWN = 50;

const TAKING_KINDS: readonly DecisionRecord['kind'][] = ['EmitSystemTick', 'StartModelTurn'];

function verdictOf(
  item: WorkItem,
  stand: WhyNotStanding,
  steps: WhyNotStep[],
  blockers: WhyNotBlocker[],
): WhyNotVerdict {
  if (item.state === 'completed') return 'completed';
  if (stand.rule === 'open_turn') return 'in_turn';
  const has = (...kinds: WhyNotBlocker['kind'][]) => blockers.some((b) => kinds.includes(b.kind));
  if (has('agent_stopped', 'agent_paused', 'agent_parked')) return 'held';
  const first = steps.find((step) => step.applies);
  if (first?.concerns_item && first.kind !== null && TAKING_KINDS.includes(first.kind)) return 'next';
  if (has('needs_input', 'wait')) return 'waiting';
  if (stand.tick_emitted) return 'surfaced';
  if (has('blocked_by')) return 'blocked';
  return 'ranked_behind';
}

const itemOf = (state: AgentState, item: WorkItem): WhyNotItem => ({
  state: item.state,
  objective: item.objective,
  revision: item.revision,
  plan_status: item.plan_status,
  blocked_by: item.blocked_by,
  recheck_at: item.recheck_at,
  is_current: state.current_work_item_id === item.id,
  readiness: readinessOf(state, item),
  scheduling_state: schedulingStateOf(state, item),
  candidate_class: candidateClassOf(state, item),
});

function summaryOf(view: Omit<WhyNot, 'summary'>): string {
  const where = view.standing
    ? `rung ${view.standing.rung} (${view.standing.rule})${view.standing.rank === null ? '' : `, #${view.standing.rank} of ${view.standing.of}`}`
    : null;
  const reason =
    view.verdict === 'next'
      ? `the scheduler decides ${view.decision.kind} ${view.decision.reason} for it now`
      : (view.blockers[0]?.detail ??
        (view.ranks_before[0] ? `${view.ranks_before[0].id} ranks before it: ${view.ranks_before[0].why}` : null));
  const next = view.next_events[0] ? `next when ${view.next_events[0].description}` : null;
  return [view.verdict.replace('_', ' '), where, reason, next].filter((part) => part !== null).join('; ');
}

/**
 * The why-not view of one work item at `now`, or null when the agent holds no such item and it was
 * not archived (the caller answers not found). Pure: the dead letter and the archived flag are inputs.
 */
export function whyNot(state: AgentState, workItemId: string, now: string, inputs: WhyNotInputs = {}): WhyNot | null {
  const settings = inputs.settings ?? DEFAULT_SCHEDULER_SETTINGS;
  const decision = toDecisionView(decideNextAction(state, now, settings), now);
  const steps = ladderSteps(state, workItemId, now, settings);
  const item = state.work_items.get(workItemId);
  if (item === undefined) {
    if (inputs.archived !== true) return null;
    const archived = {
      work_item_id: workItemId,
      now,
      verdict: 'archived' as const,
      item: null,
      decision,
      standing: null,
      ladder: steps,
      ranks_before: [],
      ranks_before_total: 0,
      blockers: [],
      next_events: [],
    };
    return { ...archived, summary: 'archived: the item was completed and left the live state; nothing makes it next' };
  }
  const stand = standingOf(state, item, settings, now);
  const completed = item.state === 'completed';
  const before = completed ? [] : ranksBefore(state, item, stand, steps, settings, now);
  const blockers = completed ? [] : blockersOf(state, item, stand, inputs.dead_letter ?? null);
  const verdict = verdictOf(item, stand, steps, blockers);
  const nextEvents = completed || verdict === 'next' ? [] : nextEventsOf(state, item, stand, blockers, before);
  const view = {
    work_item_id: workItemId,
    now,
    verdict,
    item: itemOf(state, item),
    decision,
    standing: completed ? null : stand,
    ladder: steps,
    ranks_before: verdict === 'next' ? [] : before.slice(0, RANKS_BEFORE_SHOWN),
    ranks_before_total: verdict === 'next' ? 0 : before.length,
    blockers,
    next_events: nextEvents,
  };
  return { ...view, summary: completed ? 'completed: nothing more to schedule' : summaryOf(view) };
}
