import type { AgentEvent } from '../agent/agent.events';
import type { AgentState, Posture } from '../agent/agent.state';
import type { Control } from '../control/control.commands';
import type { DropMessage, EnqueueMessage } from '../queue/queue.commands';
import { compareInstants } from '../shared/time';
import type { Warning } from '../shared/warnings';
import type { CreateTask, TaskHeartbeat, UpdateTaskStatus } from '../task/task.commands';
import { taskTransition } from '../task/task.decide';
import type { CancelTimer, CreateTimer } from '../timer/timer.commands';
import type { TimerCreated } from '../timer/timer.events';
import { type AgentSummaryView, toAgentSummaryView } from '../views/agent.view';
import { found } from './found';
import { messageView, type MessageView } from '../views/message.view';
import { toTaskView, type TaskView } from '../views/task.view';
import { toTimerView, type TimerView } from '../views/timer.view';

// Reply bodies without `revision` (the app adds it).

export type TaskReply = { task: TaskView; warnings: Warning[] };
export type TimerReply = { timer: TimerView; warnings: Warning[] };
export type CancelTimerReply = { timer: TimerView; cancelled: boolean; warnings: Warning[] };
export type EnqueueMessageReply = { message: MessageView; warnings: Warning[] };
export type DropMessageReply = { message: MessageView; dropped: boolean; warnings: Warning[] };
export type ControlReply = {
  agent: AgentSummaryView;
  previous_posture: Posture;
  posture: Posture;
  changed: boolean;
  warnings: Warning[];
};

export const STALE_TASK_STATUS_WARNING = 'stale_task_status_ignored';
export const TIMER_ALREADY_DUE_WARNING = 'timer_already_due';

const taskOf = (state: AgentState, id: string): TaskView => toTaskView(found(state.tasks.get(id), 'task', id));
const timerOf = (state: AgentState, id: string): TimerView => toTimerView(found(state.timers.get(id), 'timer', id));
const messageOf = (state: AgentState, id: string): MessageView => found(messageView(state, id), 'message', id);

export function renderCreateTaskReply(
  command: CreateTask,
  _b: AgentState,
  after: AgentState,
  _e: readonly AgentEvent[],
): TaskReply {
  return { task: taskOf(after, command.data.task_id), warnings: [] };
}

/** The executor's heartbeat: the task with its renewed lease. */
export function renderTaskHeartbeatReply(
  command: TaskHeartbeat,
  _b: AgentState,
  after: AgentState,
  _e: readonly AgentEvent[],
): TaskReply {
  return { task: taskOf(after, command.data.task_id), warnings: [] };
}

/** A stale status (an earlier phase, or another terminal after a terminal) is ignored with a warning; a repeat is silent. */
export function renderUpdateTaskStatusReply(
  command: UpdateTaskStatus,
  before: AgentState,
  after: AgentState,
  _newEvents: readonly AgentEvent[],
): TaskReply {
  const task = found(before.tasks.get(command.data.task_id), 'task', command.data.task_id);
  const current = task.status;
  const requested = command.data.status;
  const warnings: Warning[] =
    taskTransition(current, requested, task.interrupt_reason) !== 'stale'
      ? []
      : [
          {
            kind: STALE_TASK_STATUS_WARNING,
            message: `Task ${command.data.task_id} is ${current}; the update to ${requested} was ignored (task status only moves forward).`,
            current_status: current,
            requested_status: requested,
          },
        ];
  return { task: taskOf(after, command.data.task_id), warnings };
}

/** A timer created already due fires at the scheduler's next step (a warning, never a refusal). */
export function renderCreateTimerReply(
  command: CreateTimer,
  _b: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): TimerReply {
  const created = newEvents.find((e): e is TimerCreated => e.type === 'TimerCreated');
  const due = created !== undefined && compareInstants(created.data.fire_at, created.data.at) <= 0;
  const warnings: Warning[] = due
    ? [
        {
          kind: TIMER_ALREADY_DUE_WARNING,
          message: 'fire_at is not in the future: the timer fires at the next scheduler step.',
          fire_at: created.data.fire_at,
        },
      ]
    : [];
  return { timer: timerOf(after, command.data.timer_id), warnings };
}

export function renderCancelTimerReply(
  command: CancelTimer,
  _b: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): CancelTimerReply {
  return {
    timer: timerOf(after, command.data.timer_id),
    cancelled: newEvents.some((e) => e.type === 'TimerCancelled'),
    warnings: [],
  };
}

export function renderEnqueueMessageReply(
  command: EnqueueMessage,
  _b: AgentState,
  after: AgentState,
  _e: readonly AgentEvent[],
): EnqueueMessageReply {
  return { message: messageOf(after, command.data.message_id), warnings: [] };
}

export function renderDropMessageReply(
  command: DropMessage,
  _b: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): DropMessageReply {
  return {
    message: messageOf(after, command.data.message_id),
    dropped: newEvents.some((e) => e.type === 'MessageDropped'),
    warnings: [],
  };
}

export function renderControlReply(
  _command: Control,
  before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): ControlReply {
  return {
    agent: toAgentSummaryView(after),
    previous_posture: before.posture,
    posture: after.posture,
    changed: newEvents.length > 0,
    warnings: [],
  };
}
