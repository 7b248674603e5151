import type { AgentState } from '../agent/agent.state';
import { isTerminalDelegationState } from '../delegation/delegation.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import { type DecisionKind, sameDecision } from '../scheduler/decision';
import { recheckKey } from '../scheduler/tick-keys';
import { compareInstants } from '../shared/time';
import { leasedTasks } from '../task/task-lease';
import { isTerminalTaskStatus } from '../task/task.state';
import { activeIntents, schedulingStateOf } from './scheduling';
import { isTimerHeld } from './timer.view';

/*
 * Stranded work (issue 19 item 4, docs/domain-contract.md §12): what of one agent's state will not
 * move by itself. Pure: `asOf` is the instant the state was reached (its newest event's time);
 * each watch says from which instant (`since`) and after which delay (`delay`, a setting) it
 * counts as stranded. The clock is the reader's: a watch is stranded once `since + delay <= now`
 * (stranded.evaluate.ts). Nothing here depends on the thresholds, so a read model of the watches
 * stays valid when a threshold changes.
 */

// NOTE: stored format. These literals appear in the stranded_work read model and on the wire.
export type StrandedKind =
  | 'runnable_without_decision'
  | 'model_turn_waiting_for_host'
  | 'turn_past_lease'
  | 'task_past_expected_end'
  | 'timer_overdue'
  | 'timer_wait_without_timer'
  | 'task_wait_without_task'
  | 'blocked_without_wait'
  | 'delegation_counterpart_missing'
  | 'asleep_with_queued_messages';

export const STRANDED_KINDS: readonly StrandedKind[] = [
  'runnable_without_decision',
  'model_turn_waiting_for_host',
  'turn_past_lease',
  'task_past_expected_end',
  'timer_overdue',
  'timer_wait_without_timer',
  'task_wait_without_task',
  'blocked_without_wait',
  'delegation_counterpart_missing',
  'asleep_with_queued_messages',
];

/** Which threshold is added to `since`: `none` for the conditions that hold whatever the clock. */
export type StrandedDelay = 'runnable' | 'host' | 'overdue' | 'delegation' | 'none';

export const DELAY_OF_KIND: Readonly<Record<StrandedKind, StrandedDelay>> = {
  runnable_without_decision: 'runnable',
  model_turn_waiting_for_host: 'host',
  turn_past_lease: 'overdue',
  task_past_expected_end: 'overdue',
  timer_overdue: 'overdue',
  timer_wait_without_timer: 'none',
  task_wait_without_task: 'none',
  blocked_without_wait: 'none',
  delegation_counterpart_missing: 'delegation',
  asleep_with_queued_messages: 'none',
};

/** The records a watch is about; null where it does not apply. */
export type StrandedSubject = {
  work_item_id: string | null;
  intent_id: string | null;
  task_id: string | null;
  timer_id: string | null;
  turn_id: string | null;
  message_id: string | null;
  delegation_id: string | null;
};

/**
 * A delegation watch depends on the other agent's stream: `record` is stranded while the
 * counterpart has no record of the delegation, `end` while its record is not ended.
 */
export type CounterpartCheck = { agent_id: string; delegation_id: string; requires: 'record' | 'end' };

export type StrandingWatch = {
  kind: StrandedKind;
  subject: StrandedSubject;
  /** Short `name:value` lines: the records' state that makes the condition hold. */
  evidence: string[];
  /** From when the condition holds (or will hold: a due time in the future). */
  since: string;
  counterpart: CounterpartCheck | null;
};

/** Acting decisions: the scheduler (or, for StartModelTurn, a host) has something to carry out. */
const ACTING: ReadonlySet<DecisionKind> = new Set(['StartModelTurn', 'ReduceMessageOnly', 'EmitSystemTick']);

const later = (a: string, b: string): string => (compareInstants(a, b) >= 0 ? a : b);

function subject(fields: Partial<StrandedSubject>): StrandedSubject {
  return {
    work_item_id: null,
    intent_id: null,
    task_id: null,
    timer_id: null,
    turn_id: null,
    message_id: null,
    delegation_id: null,
    ...fields,
  };
}

function watch(kind: StrandedKind, of: Partial<StrandedSubject>, since: string, evidence: string[]): StrandingWatch {
  return { kind, subject: subject(of), evidence, since, counterpart: null };
}

/** `asOf`, then the rechecks still to come after it (not emitted), in the order they come. */
function* decisionInstants(state: AgentState, asOf: string): Generator<string> {
  yield asOf;
  for (const id of state.scheduling_index.rechecks) {
    const item = state.work_items.get(id);
    if (!item || item.recheck_at === null || compareInstants(item.recheck_at, asOf) <= 0) continue;
    if (state.emitted_tick_keys.has(recheckKey(item.id, item.recheck_at))) continue;
    yield item.recheck_at;
  }
}

/** Runnable work the scheduler has not decided on, and a decided model turn no host has taken. */
function decisionWatches(state: AgentState, asOf: string): StrandingWatch[] {
  if (state.open_turn_id !== null) return [];
  const recorded = state.last_decision;
  // Now, else the first recheck to come that gives the scheduler something to do (an earlier one
  // may not: a recheck of an item that needs input starts nothing, and the work becomes runnable
  // only at a later item's recheck).
  for (const since of decisionInstants(state, asOf)) {
    const decision = decideNextAction(state, since);
    if (!ACTING.has(decision.kind)) continue;
    const of = { work_item_id: decision.work_item_id ?? null, message_id: decision.message_id ?? null };
    const evidence = [`decision:${decision.kind}`, `reason:${decision.reason}`];
    if (decision.kind === 'StartModelTurn' && recorded !== null && sameDecision(recorded.decision, decision))
      return [watch('model_turn_waiting_for_host', of, recorded.at, [...evidence, `decided_at:${recorded.at}`])];
    const last = recorded === null ? 'last_decision:none' : `last_decision:${recorded.decision.kind}@${recorded.at}`;
    return [watch('runnable_without_decision', of, since, [...evidence, last])];
  }
  return [];
}

/** Due times the runtime should have acted on: the open turn's lease, leased tasks, timers. */
function overdueWatches(state: AgentState): StrandingWatch[] {
  const out: StrandingWatch[] = [];
  const turn = state.open_turn_id === null ? undefined : state.turns.get(state.open_turn_id);
  if (turn)
    out.push(
      watch(
        'turn_past_lease',
        { turn_id: turn.turn_id, message_id: turn.message_id, work_item_id: turn.work_item_id },
        turn.lease_expires_at,
        [`lease_expires_at:${turn.lease_expires_at}`, `last_heartbeat_at:${turn.last_heartbeat_at ?? 'none'}`],
      ),
    );
  for (const task of leasedTasks(state))
    out.push(
      watch('task_past_expected_end', { task_id: task.id, work_item_id: task.work_item_id }, task.lease_expires_at!, [
        `status:${task.status}`,
        `lease_expires_at:${task.lease_expires_at}`,
      ]),
    );
  for (const timer of state.timers.values())
    if (timer.status === 'scheduled' && !isTimerHeld(state, timer))
      out.push(
        watch(
          'timer_overdue',
          { timer_id: timer.id, work_item_id: timer.work_item_id, intent_id: timer.intent_id },
          timer.fire_at,
          [`fire_at:${timer.fire_at}`],
        ),
      );
  return out;
}

/** Active waits nothing can trigger: a timer wait without its scheduled timer, a task wait on a finished or unknown task. */
function deadWaitWatches(state: AgentState): StrandingWatch[] {
  const out: StrandingWatch[] = [];
  for (const intent of activeIntents(state)) {
    const of = { intent_id: intent.id, work_item_id: intent.work_item_id };
    if (intent.wake === 'timer') {
      const timer = intent.timer_id === null ? undefined : state.timers.get(intent.timer_id);
      if (timer?.status === 'scheduled') continue;
      const since = timer ? later(intent.created_at, timer.updated_at) : intent.created_at;
      const evidence = timer ? `timer:${timer.id}:${timer.status}` : `timer:${intent.timer_id ?? 'none'}:unknown`;
      out.push(watch('timer_wait_without_timer', { ...of, timer_id: intent.timer_id }, since, [evidence]));
    } else if (intent.wake === 'task_result') {
      const task = intent.resource === null ? undefined : state.tasks.get(intent.resource);
      if (task && !isTerminalTaskStatus(task.status)) continue;
      const since = task ? later(intent.created_at, task.updated_at) : intent.created_at;
      const evidence = task ? `task:${task.id}:${task.status}` : `task:${intent.resource ?? 'none'}:unknown`;
      out.push(watch('task_wait_without_task', { ...of, task_id: intent.resource }, since, [evidence]));
    }
  }
  return out;
}

/** Blocked items with no wait (of the item or of the agent) and no recheck to come. */
function blockedWatches(state: AgentState): StrandingWatch[] {
  if (activeIntents(state).some((intent) => intent.scope === 'agent')) return [];
  const out: StrandingWatch[] = [];
  for (const item of state.work_items.values()) {
    if (item.state !== 'open' || schedulingStateOf(state, item) !== 'blocked') continue;
    let since = item.updated_at;
    if (item.recheck_at !== null) {
      const emittedAt = state.emitted_tick_keys.get(recheckKey(item.id, item.recheck_at));
      if (emittedAt === undefined) continue;
      since = later(since, emittedAt);
    }
    out.push(
      watch('blocked_without_wait', { work_item_id: item.id }, since, [
        `blocked_by:${item.blocked_by}`,
        `recheck_at:${item.recheck_at ?? 'none'}`,
      ]),
    );
  }
  return out;
}

/** Each delegation needs its counterpart's record (after the delay), and an ended one its counterpart's end. */
function delegationWatches(state: AgentState): StrandingWatch[] {
  const out: StrandingWatch[] = [];
  for (const d of state.delegations.values()) {
    const other = d.role === 'parent' ? d.child_agent_id : d.parent_agent_id;
    const of = {
      delegation_id: d.delegation_id,
      work_item_id: d.role === 'parent' ? d.parent_work_item_id : d.child_work_item_id,
      task_id: d.role === 'parent' ? d.task_id : null,
    };
    const base = [`role:${d.role}`, `state:${d.state}`, `counterpart:${other}`];
    out.push({
      ...watch('delegation_counterpart_missing', of, d.delegated_at, [...base, 'flag:counterpart_missing']),
      counterpart: { agent_id: other, delegation_id: d.delegation_id, requires: 'record' },
    });
    if (isTerminalDelegationState(d.state) && d.ended_at !== null)
      out.push({
        ...watch('delegation_counterpart_missing', of, d.ended_at, [...base, 'flag:completion_missing']),
        counterpart: { agent_id: other, delegation_id: d.delegation_id, requires: 'end' },
      });
  }
  return out;
}

/** An asleep agent with queued messages: since the later of the oldest queued message and the sleep decision. */
function asleepWatches(state: AgentState): StrandingWatch[] {
  if (state.posture !== 'asleep' || state.queue.length === 0) return [];
  const oldest = state.queue
    .map((id) => state.messages.get(id)?.created_at)
    .filter((t): t is string => t !== undefined)
    .reduce((a, b) => (compareInstants(a, b) <= 0 ? a : b));
  const slept = state.last_decision?.decision.kind === 'Sleep' ? state.last_decision.at : oldest;
  return [
    watch('asleep_with_queued_messages', { message_id: state.queue[0] }, later(oldest, slept), [
      'posture:asleep',
      `queued_messages:${state.queue.length}`,
    ]),
  ];
}

/**
 * Every stranding watch of the agent's state reached at `asOf`, in a fixed order (by kind as
 * listed, then by record). A registered agent only; a healthy agent's watches are all due later
 * than the clock (or held by their counterpart), and a clock-independent condition has a watch
 * only while it holds.
 */
export function strandingWatches(state: AgentState, asOf: string): StrandingWatch[] {
  if (state.agent_id === null) return [];
  const all = [
    ...decisionWatches(state, asOf),
    ...overdueWatches(state),
    ...deadWaitWatches(state),
    ...blockedWatches(state),
    ...delegationWatches(state),
    ...asleepWatches(state),
  ];
  const rank = (kind: StrandedKind) => STRANDED_KINDS.indexOf(kind);
  return all
    .map((w, i) => ({ w, i }))
    .sort((a, b) => rank(a.w.kind) - rank(b.w.kind) || a.i - b.i)
    .map(({ w }) => w);
}

/** What the counterpart of a delegation knows of it: `open`, `ended` (absent: no record). */
export type DelegationFacts = Readonly<Record<string, 'open' | 'ended'>>;

/** This agent's delegations as its counterparts' watches read them. */
export function delegationFacts(state: AgentState): Record<string, 'open' | 'ended'> {
  const facts: Record<string, 'open' | 'ended'> = {};
  for (const d of state.delegations.values())
    facts[d.delegation_id] = isTerminalDelegationState(d.state) ? 'ended' : 'open';
  return facts;
}
