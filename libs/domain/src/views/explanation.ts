import type { AgentState } from '../agent/agent.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import { toDecisionRecord } from '../scheduler/decision';
import { schedulerProjection } from '../scheduler/scheduler-projection';
import { continueActiveKey, triggeredReviewKey } from '../scheduler/tick-keys';
import { isEmitted, itemTriggerCount } from '../scheduler/work-queue.rungs';
import { valuesInObjectOrder } from '../shared/record-map';
import { compareInstants } from '../shared/time';
import { isTerminalTaskStatus } from '../task/task.state';
import type { WaitingIntentRecord } from '../waiting-intent/waiting-intent.state';
import type { WorkItem } from '../work-item/work-item.state';
import { candidateClassOf, compareCandidates } from './candidates';
import { activeIntentsFor, readinessOf, schedulingStateOf } from './scheduling';
import { scheduledTimers } from './timer.view';

/*
 * Why the agent does what it does at `now` (the CLI's `explain`; one view for every reader): the
 * decision, and for each open work item why it is or is not runnable, derived with the domain's
 * own views and the scheduler's own key test (nothing is re-implemented).
 */

export type ExplanationIntent = {
  id: string;
  wake: string;
  scope: string;
  work_item_id: string | null;
  resource: string | null;
  reason: string;
  trigger_count: number;
  last_triggered_at: string | null;
};

const intentLine = (i: WaitingIntentRecord): ExplanationIntent => ({
  id: i.id,
  wake: i.wake,
  scope: i.scope,
  work_item_id: i.work_item_id,
  resource: i.resource,
  reason: i.reason,
  trigger_count: i.trigger_count,
  last_triggered_at: i.last_triggered_at,
});

function waitText(state: AgentState, intent: WaitingIntentRecord): string {
  switch (intent.wake) {
    case 'task_result':
      return `waits for task ${intent.resource} (${state.tasks.get(intent.resource ?? '')?.status ?? 'unknown'}; intent ${intent.id})`;
    case 'timer':
      return `waits for a timer firing at ${intent.fire_at} (intent ${intent.id})`;
    case 'operator_input':
      return `waits for operator input (intent ${intent.id})`;
    default:
      return `waits for an external change${intent.resource ? ` on ${intent.resource}` : ''} (intent ${intent.id})`;
  }
}

const WAKE_OF_SCHEDULING: Record<string, string> = {
  waiting_task: 'task_result',
  waiting_operator: 'operator_input',
  waiting_timer: 'timer',
  waiting_external: 'external',
};

/** The first clause: runnable (and how it is offered), or why not. */
function readinessClause(state: AgentState, item: WorkItem, rank: number): string {
  const scheduling = schedulingStateOf(state, item);
  const cls = candidateClassOf(state, item);
  if (cls === 'current_runnable') {
    const key = continueActiveKey(item.id, item.revision);
    return `runnable: the focus; its tick ${key} ${isEmitted(state, key) ? 'was already emitted or consumed by a turn' : 'is due'}`;
  }
  if (cls === 'queued_runnable')
    return `runnable, not the focus: #${rank + 1} of queued_runnable (offered by a queued_available tick)`;
  if (item.plan_status === 'needs_input') return 'not runnable: plan_status needs_input (waits for the operator)';
  if (scheduling !== 'runnable' && scheduling !== 'blocked') {
    const intents = activeIntentsFor(state, item.id);
    const intent = intents.find((i) => i.wake === WAKE_OF_SCHEDULING[scheduling]) ?? intents[0];
    return `not runnable: ${intent ? waitText(state, intent) : scheduling}`;
  }
  return `not runnable: blocked_by ${JSON.stringify(item.blocked_by)}`;
}

/** One sentence: why the scheduler can or cannot take this item now. */
export function whyItem(state: AgentState, item: WorkItem, rank: number, now: string): string {
  const cls = candidateClassOf(state, item);
  const parts = [readinessClause(state, item, rank)];
  if (state.current_work_item_id === item.id && cls !== 'current_runnable') parts.push('focused for inspection only');
  if (item.blocked_by !== null && !parts[0].includes('blocked_by'))
    parts.push(`blocker: ${JSON.stringify(item.blocked_by)}`);
  if (item.recheck_at !== null)
    parts.push(`recheck at ${item.recheck_at} (${compareInstants(item.recheck_at, now) <= 0 ? 'due' : 'not due yet'})`);
  if (cls === 'triggered_blocked') {
    const key = triggeredReviewKey(item.id, itemTriggerCount(state, item.id));
    parts.push(`triggered: ${isEmitted(state, key) ? `already surfaced (${key})` : `to be surfaced by ${key}`}`);
  }
  return parts.join('; ');
}

function explainItem(state: AgentState, item: WorkItem, rank: number, now: string) {
  const intents = activeIntentsFor(state, item.id);
  const readiness = readinessOf(state, item);
  return {
    id: item.id,
    objective: item.objective,
    revision: item.revision,
    is_current: state.current_work_item_id === item.id,
    runnable: readiness === 'runnable',
    readiness,
    scheduling_state: schedulingStateOf(state, item),
    candidate_class: candidateClassOf(state, item),
    plan_status: item.plan_status,
    needs_input: item.plan_status === 'needs_input',
    blocked_by: item.blocked_by,
    recheck_at: item.recheck_at,
    active_intents: intents.map(intentLine),
    triggered_intents: intents.filter((i) => i.trigger_count > 0).map((i) => i.id),
    why: whyItem(state, item, rank, now),
  };
}

export type ItemExplanation = ReturnType<typeof explainItem>;

/** What the agent waits for (docs/domain-contract.md §5 rung 9), and the tasks that run without being waits. */
function waits(state: AgentState) {
  const active = state.waiting_intents
    .values()
    .filter((i) => i.status === 'active')
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const needsInput = state.work_items
    .values()
    .filter((i) => i.state === 'open' && i.plan_status === 'needs_input')
    .map((i) => i.id)
    .sort();
  return {
    operator_items: needsInput,
    intents: active.map(intentLine),
    timers: scheduledTimers(state).map((t) => ({ id: t.id, fire_at: t.fire_at, work_item_id: t.work_item_id })),
    tasks_not_waits: valuesInObjectOrder(state.tasks)
      .filter((t) => !isTerminalTaskStatus(t.status))
      .map((t) => ({ id: t.id, status: t.status, work_item_id: t.work_item_id })),
  };
}

/** The explanation of an agent's state at `now`: the decision, each open item's why, the queue and the waits. */
export function explainState(state: AgentState, now: string) {
  const projection = schedulerProjection(state, now);
  const open = state.work_items
    .values()
    .filter((item) => item.state === 'open')
    .sort(compareCandidates(state));
  const rankIn = (item: WorkItem) =>
    open
      .filter((other) => candidateClassOf(state, other) === candidateClassOf(state, item))
      .findIndex((other) => other.id === item.id);
  return {
    posture: state.posture,
    runtime_posture: projection.runtime_posture,
    closure: projection.closure,
    last_turn_terminal: projection.last_turn_terminal,
    decision: toDecisionRecord(decideNextAction(state, now)),
    current_work_item_id: state.current_work_item_id,
    work_items: open.map((item) => explainItem(state, item, rankIn(item), now)),
    completed_work_items: projection.counts.completed,
    queue: projection.queue,
    replay_message_ids: projection.replay_message_ids,
    open_turn: projection.open_turn,
    pending_wake_hint: projection.pending_wake_hint,
    waits: waits(state),
    last_decision: projection.last_decision,
  };
}

export type Explanation = ReturnType<typeof explainState>;
