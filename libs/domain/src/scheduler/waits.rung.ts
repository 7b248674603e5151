import type { AgentState } from '../agent/agent.state';
import { isTerminalTaskStatus } from '../task/task.state';
import { scheduledTimers } from '../views/timer.view';
import type { WaitingIntentRecord } from '../waiting-intent/waiting-intent.state';
import { type Comparator, recencyComparator } from '../views/candidate-ranking';
import { withinClassComparator } from '../views/candidates';
import { activeIntents, readinessOf } from '../views/scheduling';
import type { WorkItem } from '../work-item/work-item.state';
import { plainDecision, type SchedulerDecision } from './decision';
import { type CompiledSettings, compiledSettings, DEFAULT_SCHEDULER_SETTINGS } from './scheduler-settings';

const DEFAULTS = compiledSettings(DEFAULT_SCHEDULER_SETTINGS);

/** The declared recency order, or a what-if policy's keys for the class (docs/decisions/0037). */
function orderOf(
  state: AgentState,
  settings: CompiledSettings,
  cls: 'waiting_for_operator' | 'blocked',
  items: WorkItem[],
): Comparator {
  return settings.declared_keys[cls] ? recencyComparator() : withinClassComparator(state, settings.keys[cls], items);
}

// Rungs 9-10 of docs/domain-contract.md §5: what an idle agent waits for, named in the evidence.

/** Open items waiting for the operator: needs_input, or an active operator wait on the item. */
function operatorItems(state: AgentState, intents: WaitingIntentRecord[], settings: CompiledSettings): string[] {
  const byWait = new Set(
    intents.filter((i) => i.wake === 'operator_input' && i.work_item_id !== null).map((i) => i.work_item_id),
  );
  const items = state.work_items
    .values()
    .filter((item) => item.state === 'open' && (item.plan_status === 'needs_input' || byWait.has(item.id)));
  return items.sort(orderOf(state, settings, 'waiting_for_operator', items)).map((item) => item.id);
}

const intentEvidence = (intent: WaitingIntentRecord): string =>
  `intent:${intent.id}:${intent.wake}:${intent.work_item_id ?? 'agent'}${intent.resource === null ? '' : `:${intent.resource}`}`;

/** Everything awaited, as evidence lines: operator items, intents, the tasks they wait on, scheduled timers. */
function awaitedEvidence(state: AgentState, intents: WaitingIntentRecord[], operator: string[]): string[] {
  const tasks = intents
    .filter((i) => i.wake === 'task_result' && i.resource !== null)
    .map((i) => `task:${i.resource}:${state.tasks.get(i.resource)?.status ?? 'unknown'}`);
  return [
    ...operator.map((id) => `waiting_for_operator:${id}`),
    ...intents.map(intentEvidence),
    ...[...new Set(tasks)],
    ...scheduledTimers(state).map((timer) => `timer:${timer.id}:${timer.fire_at}`),
  ];
}

/** Rung 9: operator > task > timer > any other active intent. Null when nothing is awaited. */
export function waitRung(state: AgentState, settings: CompiledSettings = DEFAULTS): SchedulerDecision | null {
  const intents = activeIntents(state);
  const operator = operatorItems(state, intents, settings);
  const timers = scheduledTimers(state);
  if (operator.length === 0 && intents.length === 0 && timers.length === 0) return null;
  const evidence = awaitedEvidence(state, intents, operator);
  const agentOperator = intents.find((i) => i.wake === 'operator_input');
  if (operator.length > 0 || agentOperator) {
    return plainDecision('WaitForOperator', 'waiting_for_operator', evidence, {
      work_item_id: operator[0] ?? agentOperator?.work_item_id ?? undefined,
    });
  }
  const task = intents.find((i) => i.wake === 'task_result');
  if (task) {
    return plainDecision('WaitForTask', 'waiting_for_task', evidence, {
      task_id: task.resource ?? undefined,
      work_item_id: task.work_item_id ?? undefined,
    });
  }
  const timerIntent = intents.find((i) => i.wake === 'timer');
  if (timers.length > 0 || timerIntent) {
    const itemId = timers[0]?.work_item_id ?? timerIntent?.work_item_id ?? undefined;
    return plainDecision('WaitForTimer', 'waiting_for_timer', evidence, { work_item_id: itemId ?? undefined });
  }
  const other = intents[0];
  return plainDecision('WaitForExternalChange', 'waiting_for_external_change', evidence, {
    work_item_id: other?.work_item_id ?? undefined,
  });
}

/** Rung 10: nothing to do and nothing awaited. Blocked items and running tasks are named (task presence is not a wait). */
export function idleRung(state: AgentState, settings: CompiledSettings = DEFAULTS): SchedulerDecision {
  const items = state.work_items
    .values()
    .filter((item) => item.state === 'open' && readinessOf(state, item) === 'blocked');
  const blocked = items.sort(orderOf(state, settings, 'blocked', items)).map((item) => `blocked:${item.id}`);
  const tasks = state.tasks
    .values()
    .filter((task) => !isTerminalTaskStatus(task.status))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((task) => `active_task_not_a_wait:${task.id}:${task.status}`);
  const evidence = ['queue_empty', 'no_runnable_work', ...blocked, ...tasks];
  return state.posture === 'asleep'
    ? plainDecision('StayIdle', 'asleep', evidence)
    : plainDecision('Sleep', 'no_runnable_work', evidence);
}
