import type { ArchiveEvent } from '../archive/archive.events';
import type { DelegationEvent } from '../delegation/delegation.events';
import type { ControlEvent } from '../control/control.events';
import type { FocusEvent } from '../focus/focus.events';
import type { QueueEvent } from '../queue/queue.events';
import type { SchedulerEvent } from '../scheduler/scheduler.events';
import type { TaskEvent } from '../task/task.events';
import type { TimerEvent } from '../timer/timer.events';
import type { TurnEvent } from '../turn/turn.events';
import type { WaitingIntentEvent } from '../waiting-intent/waiting-intent.events';
import type { WakeHintEvent } from '../wake-hint/wake-hint.events';
import type { WorkItemEvent } from '../work-item/work-item.events';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type AgentRegistered = {
  type: 'AgentRegistered';
  data: { agent_id: string; at: string };
};

export type AgentLifecycleEvent = AgentRegistered;

export function isAgentLifecycleEvent(event: { type: string }): event is AgentLifecycleEvent {
  return event.type === 'AgentRegistered';
}

/** Every event the agent decider emits. Later slices add their unions here. */
export type AgentEvent =
  | AgentLifecycleEvent
  | WorkItemEvent
  | FocusEvent
  | WaitingIntentEvent
  | TaskEvent
  | TimerEvent
  | WakeHintEvent
  | QueueEvent
  | ControlEvent
  | TurnEvent
  | SchedulerEvent
  | ArchiveEvent
  | DelegationEvent;

/** Any stored event, including types this version does not know (evolve ignores them). */
export type AnyEvent = { type: string; data?: unknown };
