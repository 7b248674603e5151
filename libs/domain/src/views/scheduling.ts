import type { AgentState, WaitingIntentRecord, WaitWake } from '../agent/agent.state';
import type { WorkItem } from '../work-item/work-item.state';

export type SchedulingState =
  'runnable' | 'waiting_operator' | 'waiting_task' | 'waiting_timer' | 'waiting_external' | 'blocked' | 'completed';

export type Readiness = 'runnable' | 'waiting_for_operator' | 'blocked' | 'completed';

/** docs/domain-contract.md §2: when an item has several active intents, this precedence names its state. */
const WAIT_PRECEDENCE: readonly [WaitWake, SchedulingState][] = [
  ['task_result', 'waiting_task'],
  ['operator_input', 'waiting_operator'],
  ['timer', 'waiting_timer'],
  ['external', 'waiting_external'],
];

/** Every active waiting intent, oldest first (created_at, then id): read from the scheduling index. */
export function activeIntents(state: AgentState): WaitingIntentRecord[] {
  return state.scheduling_index.active_intents.map((id) => state.waiting_intents.get(id)!);
}

/** Active waiting intents scoped to this work item (agent-scoped intents never count), oldest first. */
export function activeIntentsFor(state: AgentState, workItemId: string): WaitingIntentRecord[] {
  return activeIntents(state).filter((intent) => intent.scope === 'work_item' && intent.work_item_id === workItemId);
}

export function isTriggered(intent: WaitingIntentRecord): boolean {
  return intent.trigger_count > 0;
}

export function triggeredIntentsFor(state: AgentState, workItemId: string): WaitingIntentRecord[] {
  return activeIntentsFor(state, workItemId).filter(isTriggered);
}

/** First match wins: completed, needs_input, an active intent, blocked_by, else runnable. */
export function schedulingStateOf(state: AgentState, item: WorkItem): SchedulingState {
  if (item.state === 'completed') return 'completed';
  if (item.plan_status === 'needs_input') return 'waiting_operator';
  const wakes = new Set(activeIntentsFor(state, item.id).map((intent) => intent.wake));
  const waiting = WAIT_PRECEDENCE.find(([wake]) => wakes.has(wake));
  if (waiting) return waiting[1];
  if (item.blocked_by !== null) return 'blocked';
  return 'runnable';
}

export function readinessFromSchedulingState(scheduling: SchedulingState): Readiness {
  switch (scheduling) {
    case 'runnable':
      return 'runnable';
    case 'waiting_operator':
      return 'waiting_for_operator';
    case 'completed':
      return 'completed';
    default:
      return 'blocked';
  }
}

export function readinessOf(state: AgentState, item: WorkItem): Readiness {
  return readinessFromSchedulingState(schedulingStateOf(state, item));
}

/** The focus, if it points at an item that exists. */
export function currentWorkItem(state: AgentState): WorkItem | null {
  const id = state.current_work_item_id;
  return id === null ? null : (state.work_items.get(id) ?? null);
}
