import type { CommandOptions, ReadOptions } from './client-base';
import { messageBody } from './grpc/messages';
import { route } from './operation';
import type {
  CallbackBody,
  CancelWaitingIntentBody,
  CommandReply,
  CreateTaskBody,
  CreateTimerBody,
  QueryOf,
  Reply,
  TaskHeartbeatBody,
  TriggerWaitingIntentBody,
  UpdateTaskStatusBody,
  WaitForBody,
  WakeHintBody,
} from './types';
import { int, WorkClient } from './work-client';

/** The waiting plane (waits, intents, callbacks, wake hints), timers and tasks. */
export class WaitingClient extends WorkClient {
  /** WaitFor on a work item, or at agent scope when `workItemId` is null. */
  waitFor(agentId: string, workItemId: string | null, body: WaitForBody, options?: CommandOptions) {
    const path =
      workItemId === null
        ? route('agents', agentId, 'waits')
        : route('agents', agentId, 'work-items', workItemId, 'wait');
    const request = { agent_id: agentId, ...(workItemId === null ? {} : { work_item_id: workItemId }), ...body };
    return this.command<CommandReply<'/v1/agents/{agent_id}/waits', 'post'>>(
      {
        name: 'waitFor',
        kind: 'command',
        agentId,
        http: { method: 'POST', path, body },
        grpc: { rpc: 'WaitFor', request },
      },
      options,
    );
  }

  listWaitingIntents(
    agentId: string,
    query: QueryOf<'/v1/agents/{agent_id}/waiting-intents', 'get'> = {},
    options?: ReadOptions,
  ) {
    return this.read<Reply<'/v1/agents/{agent_id}/waiting-intents', 'get'>>(
      {
        name: 'listWaitingIntents',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'waiting-intents'), query },
        grpc: { rpc: 'ListWaitingIntents', request: { agent_id: agentId, ...query, limit: int(query.limit) } },
      },
      options,
    );
  }

  cancelWaitingIntent(agentId: string, intentId: string, body: CancelWaitingIntentBody = {}, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/waiting-intents/{intent_id}', 'delete'>>(
      {
        name: 'cancelWaitingIntent',
        kind: 'command',
        agentId,
        http: { method: 'DELETE', path: route('agents', agentId, 'waiting-intents', intentId), body },
        grpc: { rpc: 'CancelWaitingIntent', request: { agent_id: agentId, intent_id: intentId, ...body } },
      },
      options,
    );
  }

  triggerWaitingIntent(agentId: string, intentId: string, body: TriggerWaitingIntentBody, options?: CommandOptions) {
    const request = { agent_id: agentId, intent_id: intentId, ...body, payload: messageBody(body.payload) };
    return this.command<CommandReply<'/v1/agents/{agent_id}/waiting-intents/{intent_id}/trigger', 'post'>>(
      {
        name: 'triggerWaitingIntent',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'waiting-intents', intentId, 'trigger'), body },
        grpc: { rpc: 'TriggerWaitingIntent', request },
      },
      options,
    );
  }

  /** The public callback of an `external` wait: the token is the credential (no bearer token is sent). */
  callback(callbackToken: string, body: CallbackBody, options?: CommandOptions) {
    const request = { callback_token: callbackToken, ...body, payload: messageBody(body.payload) };
    return this.command<CommandReply<'/v1/callbacks/{callback_token}', 'post'>>(
      {
        name: 'callback',
        kind: 'command',
        public: true,
        http: { method: 'POST', path: route('callbacks', callbackToken), body },
        grpc: { rpc: 'Callback', request },
      },
      options,
    );
  }

  submitWakeHint(agentId: string, body: WakeHintBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/wake-hints', 'post'>>(
      {
        name: 'submitWakeHint',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'wake-hints'), body },
        grpc: { rpc: 'SubmitWakeHint', request: { agent_id: agentId, ...body, body: messageBody(body.body) } },
      },
      options,
    );
  }

  createTimer(agentId: string, body: CreateTimerBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/timers', 'post'>>(
      {
        name: 'createTimer',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'timers'), body },
        grpc: { rpc: 'CreateTimer', request: { agent_id: agentId, ...body } },
      },
      options,
    );
  }

  listTimers(agentId: string, query: QueryOf<'/v1/agents/{agent_id}/timers', 'get'> = {}, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}/timers', 'get'>>(
      {
        name: 'listTimers',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'timers'), query },
        grpc: { rpc: 'ListTimers', request: { agent_id: agentId, ...query, limit: int(query.limit) } },
      },
      options,
    );
  }

  cancelTimer(agentId: string, timerId: string, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/timers/{timer_id}', 'delete'>>(
      {
        name: 'cancelTimer',
        kind: 'command',
        agentId,
        http: { method: 'DELETE', path: route('agents', agentId, 'timers', timerId) },
        grpc: { rpc: 'CancelTimer', request: { agent_id: agentId, timer_id: timerId } },
      },
      options,
    );
  }

  createTask(agentId: string, body: CreateTaskBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/tasks', 'post'>>(
      {
        name: 'createTask',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'tasks'), body },
        grpc: { rpc: 'CreateTask', request: { agent_id: agentId, ...body } },
      },
      options,
    );
  }

  /** Renews the task's lease (the executor's heartbeat). */
  taskHeartbeat(agentId: string, taskId: string, body: TaskHeartbeatBody = {}, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/tasks/{task_id}/heartbeat', 'post'>>(
      {
        name: 'taskHeartbeat',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'tasks', taskId, 'heartbeat'), body },
        grpc: { rpc: 'TaskHeartbeat', request: { agent_id: agentId, task_id: taskId, ...body } },
      },
      options,
    );
  }

  updateTaskStatus(agentId: string, taskId: string, body: UpdateTaskStatusBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/tasks/{task_id}/status', 'post'>>(
      {
        name: 'updateTaskStatus',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'tasks', taskId, 'status'), body },
        grpc: { rpc: 'UpdateTaskStatus', request: { agent_id: agentId, task_id: taskId, ...body } },
      },
      options,
    );
  }

  listTasks(agentId: string, query: QueryOf<'/v1/agents/{agent_id}/tasks', 'get'> = {}, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}/tasks', 'get'>>(
      {
        name: 'listTasks',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'tasks'), query },
        grpc: { rpc: 'ListTasks', request: { agent_id: agentId, ...query, limit: int(query.limit) } },
      },
      options,
    );
  }
}
