import type { AgentCommand } from '../agent/agent.commands';
import { decide } from '../agent/agent.decide';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import type { ControlAction } from '../control/control.commands';
import type { EnqueueMessage } from '../queue/queue.commands';
import type { CreateTask, UpdateTaskStatus } from '../task/task.commands';
import type { CreateTimer } from '../timer/timer.commands';
import type { TriggerWaitingIntent, WaitFor } from '../waiting-intent/waiting-intent.commands';
import type { SubmitWakeHint } from '../wake-hint/wake-hint.commands';
import { meta } from './fixtures';

// Command builders for the waiting plane, tasks, timers, wake hints, queue and control
// (default meta: now = at(60)), and `history` to write a stream by deciding commands.

type Data<C extends AgentCommand> = C['data'];

export const wcmd = {
  waitFor: (
    intentId: string,
    workItemId: string | null,
    data: Partial<Data<WaitFor>> = {},
    now?: string,
  ): AgentCommand => ({
    type: 'WaitFor',
    data: {
      scope: workItemId === null ? 'agent' : 'work_item',
      ...(workItemId !== null && { work_item_id: workItemId }),
      intent_id: intentId,
      wake: 'operator_input',
      reason: `waiting (${intentId})`,
      ...data,
    },
    meta: meta(now),
  }),
  trigger: (intentId: string, data: Partial<Data<TriggerWaitingIntent>> = {}, now?: string): AgentCommand => ({
    type: 'TriggerWaitingIntent',
    data: { intent_id: intentId, source: 'github', via: 'api', message_id: `m-${intentId}`, ...data },
    meta: meta(now),
  }),
  cancelIntent: (intentId: string, note?: string): AgentCommand => ({
    type: 'CancelWaitingIntent',
    data: { intent_id: intentId, ...(note !== undefined && { note }) },
    meta: meta(),
  }),
  createTask: (taskId: string, data: Partial<Data<CreateTask>> = {}): AgentCommand => ({
    type: 'CreateTask',
    data: { task_id: taskId, kind: 'command', wait_policy: 'background', ...data },
    meta: meta(),
  }),
  taskStatus: (
    taskId: string,
    status: Data<UpdateTaskStatus>['status'],
    data: Partial<Data<UpdateTaskStatus>> = {},
  ): AgentCommand => ({
    type: 'UpdateTaskStatus',
    data: { task_id: taskId, status, message_id: `m-${taskId}-${status}`, ...data },
    meta: meta(),
  }),
  createTimer: (timerId: string, data: Partial<Data<CreateTimer>> = {}, now?: string): AgentCommand => ({
    type: 'CreateTimer',
    data: { timer_id: timerId, ...data },
    meta: meta(now),
  }),
  cancelTimer: (timerId: string): AgentCommand => ({ type: 'CancelTimer', data: { timer_id: timerId }, meta: meta() }),
  fireTimer: (timerId: string, now: string, messageId = `m-${timerId}-${now}`): AgentCommand => ({
    type: 'FireTimer',
    data: { timer_id: timerId, message_id: messageId },
    meta: meta(now),
  }),
  wakeHint: (data: Partial<Data<SubmitWakeHint>> = {}, now?: string): AgentCommand => ({
    type: 'SubmitWakeHint',
    data: { source: 'ci', reason: 'build finished', message_id: 'm-hint', ...data },
    meta: meta(now),
  }),
  enqueue: (messageId: string, data: Partial<Data<EnqueueMessage>> = {}): AgentCommand => ({
    type: 'EnqueueMessage',
    data: {
      message_id: messageId,
      kind: 'operator_prompt',
      body: `body of ${messageId}`,
      authority: 'operator_instruction',
      ...data,
    },
    meta: meta(),
  }),
  drop: (messageId: string): AgentCommand => ({ type: 'DropMessage', data: { message_id: messageId }, meta: meta() }),
  control: (action: ControlAction): AgentCommand => ({ type: 'Control', data: { action }, meta: meta() }),
};

/** `history` extended by deciding each command in turn (a readable way to reach a state through real rules). */
export function history(events: readonly AgentEvent[], ...commands: AgentCommand[]): AgentEvent[] {
  return commands.reduce<AgentEvent[]>(
    (stream, command) => [...stream, ...decide(command, replay(stream))],
    [...events],
  );
}

/** The event types, in order. */
export const typesOf = (events: readonly AgentEvent[]): string[] => events.map((event) => event.type);
