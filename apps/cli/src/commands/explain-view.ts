import {
  activeIntentsFor,
  type AgentState,
  candidateClassOf,
  compareCandidates,
  continueActiveKey,
  decideNextAction,
  isTerminalTaskStatus,
  itemTriggerCount,
  readinessOf,
  schedulerProjection,
  schedulingStateOf,
  scheduledTimers,
  toDecisionRecord,
  triggeredReviewKey,
  valuesInObjectOrder,
  type WaitingIntentRecord,
  type WorkItem,
  type AnyEvent,
  evolve,
  initialAgentState,
} from '@app/domain';
import { CliError, EXIT } from '../cli-io';
import type { AgentStreamSource } from './replay-source';

/*
 * What `explain` prints, as one JSON value: the decision at `now`, and for each open work item
 * why it is or is not runnable, derived with the domain's own views (nothing is re-implemented).
 */

type IntentLine = {
  id: string;
  wake: string;
  scope: string;
  work_item_id: string | null;
  resource: string | null;
  reason: string;
  trigger_count: number;
  last_triggered_at: string | null;
};

const intentLine = (i: WaitingIntentRecord): IntentLine => ({
  id: i.id,
  wake: i.wake,
  scope: i.scope,
  work_item_id: i.work_item_id,
  resource: i.resource,
  reason: i.reason,
  trigger_count: i.trigger_count,
  last_triggered_at: i.last_triggered_at,
});

const emitted = (state: AgentState, key: string): boolean =>
  Object.prototype.hasOwnProperty.call(state.emitted_tick_keys, key);

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

/** One sentence: why the scheduler can or cannot take this item now. */
function why(state: AgentState, item: WorkItem, rank: number, now: string): string {
  const scheduling = schedulingStateOf(state, item);
  const cls = candidateClassOf(state, item);
  const intents = activeIntentsFor(state, item.id);
  const parts: string[] = [];
  if (cls === 'current_runnable') {
    const key = continueActiveKey(item.id, item.revision);
    parts.push(
      `runnable: the focus; its tick ${key} ${emitted(state, key) ? 'was already emitted or consumed by a turn' : 'is due'}`,
    );
  } else if (cls === 'queued_runnable') {
    parts.push(`runnable, not the focus: #${rank + 1} of queued_runnable (offered by a queued_available tick)`);
  } else if (item.plan_status === 'needs_input') {
    parts.push('not runnable: plan_status needs_input (waits for the operator)');
  } else if (scheduling !== 'runnable' && scheduling !== 'blocked') {
    const wake = {
      waiting_task: 'task_result',
      waiting_operator: 'operator_input',
      waiting_timer: 'timer',
      waiting_external: 'external',
    }[scheduling as string];
    const intent = intents.find((i) => i.wake === wake) ?? intents[0];
    parts.push(`not runnable: ${intent ? waitText(state, intent) : scheduling}`);
  } else {
    parts.push(`not runnable: blocked_by ${JSON.stringify(item.blocked_by)}`);
  }
  if (state.current_work_item_id === item.id && cls !== 'current_runnable') parts.push('focused for inspection only');
  if (item.blocked_by !== null && !parts[0].includes('blocked_by'))
    parts.push(`blocker: ${JSON.stringify(item.blocked_by)}`);
  if (item.recheck_at !== null)
    parts.push(
      `recheck at ${item.recheck_at} (${Date.parse(item.recheck_at) <= Date.parse(now) ? 'due' : 'not due yet'})`,
    );
  if (cls === 'triggered_blocked') {
    const key = triggeredReviewKey(item.id, itemTriggerCount(state, item.id));
    parts.push(`triggered: ${emitted(state, key) ? `already surfaced (${key})` : `to be surfaced by ${key}`}`);
  }
  return parts.join('; ');
}

function explainItem(state: AgentState, item: WorkItem, rank: number, now: string) {
  const intents = activeIntentsFor(state, item.id);
  return {
    id: item.id,
    objective: item.objective,
    revision: item.revision,
    is_current: state.current_work_item_id === item.id,
    runnable: readinessOf(state, item) === 'runnable',
    readiness: readinessOf(state, item),
    scheduling_state: schedulingStateOf(state, item),
    candidate_class: candidateClassOf(state, item),
    plan_status: item.plan_status,
    needs_input: item.plan_status === 'needs_input',
    blocked_by: item.blocked_by,
    recheck_at: item.recheck_at,
    active_intents: intents.map(intentLine),
    triggered_intents: intents.filter((i) => i.trigger_count > 0).map((i) => i.id),
    why: why(state, item, rank, now),
  };
}

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

/** The explanation at revision `at` (null: the end), with `now` from the flag or the event's recorded_at. */
export function explainAt(source: AgentStreamSource, at: number | null, now: string | null) {
  const last = source.stored.length - 1;
  const revision = at ?? last;
  if (revision > last)
    throw new CliError(
      EXIT.notFound,
      `--at ${revision} is beyond the stream: agent ${source.agentId} has revisions 0..${last}`,
    );
  const state = source.events
    .slice(0, revision + 1)
    .reduce((s: ReturnType<typeof initialAgentState>, e: AnyEvent) => evolve(s, e), initialAgentState());
  const instant = now ?? source.stored[revision].recorded_at;
  return {
    agent_id: source.agentId,
    source: source.origin,
    revision,
    last_revision: last,
    now: instant,
    now_source: now === null ? `recorded_at of revision ${revision}` : '--now',
    ...explainState(state, instant),
  };
}

export type ExplainReply = ReturnType<typeof explainAt>;
