import type { ArchiveCommand } from '../archive/archive.commands';
import type { DelegationCommand } from '../delegation/delegation.commands';
import type { ControlCommand } from '../control/control.commands';
import type { FocusCommand } from '../focus/focus.commands';
import type { QueueCommand } from '../queue/queue.commands';
import type { SchedulerCommand } from '../scheduler/scheduler.commands';
import type { CommandMeta } from '../shared/command-meta';
import type { TaskCommand } from '../task/task.commands';
import type { TimerCommand } from '../timer/timer.commands';
import type { TurnCommand } from '../turn/turn.commands';
import type { WaitingIntentCommand } from '../waiting-intent/waiting-intent.commands';
import type { WakeHintCommand } from '../wake-hint/wake-hint.commands';
import type { WorkItemCommand } from '../work-item/work-item.commands';

export type RegisterAgent = {
  type: 'RegisterAgent';
  data: { agent_id: string };
  meta: CommandMeta;
};

/** Every command the agent decider accepts. Later slices add their unions here. */
export type AgentCommand =
  | RegisterAgent
  | WorkItemCommand
  | FocusCommand
  | WaitingIntentCommand
  | TaskCommand
  | TimerCommand
  | WakeHintCommand
  | QueueCommand
  | ControlCommand
  | TurnCommand
  | SchedulerCommand
  | ArchiveCommand
  | DelegationCommand;
