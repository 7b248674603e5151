import { RuntimeClientBase, type CommandOptions, type ReadOptions } from './client-base';
import { route } from './operation';
import type {
  CommandReply,
  CompleteWorkItemBody,
  CreateWorkItemBody,
  JsonObject,
  PickWorkItemBody,
  QueryOf,
  RegisterAgentBody,
  Reply,
  SpawnAgentBody,
  UpdateWorkItemBody,
} from './types';

/** A query value as the proto's integer field. */
export const int = (value: unknown): number | undefined => (value === undefined ? undefined : Number(value));

/** Agents, work items and their plan. */
export class WorkClient extends RuntimeClientBase {
  registerAgent(body: RegisterAgentBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents', 'post'>>(
      {
        name: 'registerAgent',
        kind: 'command',
        agentId: body.agent_id,
        http: { method: 'POST', path: route('agents'), body },
        grpc: { rpc: 'RegisterAgent', request: { ...body } },
      },
      options,
    );
  }

  getAgent(agentId: string, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}', 'get'>>(
      {
        name: 'getAgent',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId) },
        grpc: { rpc: 'GetAgent', request: { agent_id: agentId } },
      },
      options,
    );
  }

  createWorkItem(agentId: string, body: CreateWorkItemBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/work-items', 'post'>>(
      {
        name: 'createWorkItem',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'work-items'), body },
        grpc: { rpc: 'CreateWorkItem', request: { agent_id: agentId, ...body } },
      },
      options,
    );
  }

  /** PATCH semantics: an absent field is left as it is; `blocked_by: null`, `recheck_at: null` and `todo_list: []` clear. */
  updateWorkItem(agentId: string, workItemId: string, body: UpdateWorkItemBody, options?: CommandOptions) {
    const { blocked_by, recheck_at, todo_list, ...rest } = body as UpdateWorkItemBody & JsonObject;
    const request: JsonObject = { agent_id: agentId, work_item_id: workItemId, ...rest };
    if (blocked_by === null) request.clear_blocked_by = true;
    else if (blocked_by !== undefined) request.blocked_by = blocked_by;
    if (recheck_at === null) request.clear_recheck_at = true;
    else if (recheck_at !== undefined) request.recheck_at = recheck_at;
    if (Array.isArray(todo_list) && todo_list.length === 0) request.clear_todo_list = true;
    else if (todo_list !== undefined) request.todo_list = todo_list;
    return this.command<CommandReply<'/v1/agents/{agent_id}/work-items/{work_item_id}', 'patch'>>(
      {
        name: 'updateWorkItem',
        kind: 'command',
        agentId,
        http: { method: 'PATCH', path: route('agents', agentId, 'work-items', workItemId), body },
        grpc: { rpc: 'UpdateWorkItem', request },
      },
      options,
    );
  }

  pickWorkItem(agentId: string, workItemId: string, body: PickWorkItemBody = {}, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/work-items/{work_item_id}/pick', 'post'>>(
      {
        name: 'pickWorkItem',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'work-items', workItemId, 'pick'), body },
        grpc: { rpc: 'PickWorkItem', request: { agent_id: agentId, work_item_id: workItemId, ...body } },
      },
      options,
    );
  }

  completeWorkItem(agentId: string, workItemId: string, body: CompleteWorkItemBody = {}, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/work-items/{work_item_id}/complete', 'post'>>(
      {
        name: 'completeWorkItem',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'work-items', workItemId, 'complete'), body },
        grpc: { rpc: 'CompleteWorkItem', request: { agent_id: agentId, work_item_id: workItemId, ...body } },
      },
      options,
    );
  }

  getWorkItem(agentId: string, workItemId: string, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}/work-items/{work_item_id}', 'get'>>(
      {
        name: 'getWorkItem',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'work-items', workItemId) },
        grpc: { rpc: 'GetWorkItem', request: { agent_id: agentId, work_item_id: workItemId } },
      },
      options,
    );
  }

  listWorkItems(
    agentId: string,
    query: QueryOf<'/v1/agents/{agent_id}/work-items', 'get'> = {},
    options?: ReadOptions,
  ) {
    return this.read<Reply<'/v1/agents/{agent_id}/work-items', 'get'>>(
      {
        name: 'listWorkItems',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'work-items'), query },
        grpc: { rpc: 'ListWorkItems', request: { agent_id: agentId, filter: query.filter, limit: int(query.limit) } },
      },
      options,
    );
  }

  /** The plan body (markdown); with `version` (a hash from listPlanVersions), that recorded version's. */
  getPlan(agentId: string, workItemId: string, query: { version?: string } = {}, options?: ReadOptions) {
    return this.read<string>(
      {
        name: 'getPlan',
        kind: 'read',
        agentId,
        http: {
          method: 'GET',
          path: route('agents', agentId, 'work-items', workItemId, 'plan'),
          query,
          replyText: true,
        },
        grpc: {
          rpc: 'GetPlan',
          request: { agent_id: agentId, work_item_id: workItemId, version: query.version },
          reply: (reply) => reply.body ?? '',
        },
      },
      options,
    );
  }

  listPlanVersions(agentId: string, workItemId: string, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}/work-items/{work_item_id}/plan/versions', 'get'>>(
      {
        name: 'listPlanVersions',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'work-items', workItemId, 'plan', 'versions') },
        grpc: { rpc: 'ListPlanVersions', request: { agent_id: agentId, work_item_id: workItemId } },
      },
      options,
    );
  }

  /** Replaces the plan body (markdown). */
  replacePlan(agentId: string, workItemId: string, text: string, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/work-items/{work_item_id}/plan', 'put'>>(
      {
        name: 'replacePlan',
        kind: 'command',
        agentId,
        http: {
          method: 'PUT',
          path: route('agents', agentId, 'work-items', workItemId, 'plan'),
          body: text,
          text: true,
        },
        grpc: { rpc: 'ReplacePlan', request: { agent_id: agentId, work_item_id: workItemId, body: text } },
      },
      options,
    );
  }

  /**
   * SpawnAgent: a private child serving a delegation of the parent's item (its report comes back
   * as the child_agent task's result), or an independent public agent. `agent_id` is the child's.
   */
  spawn(parentId: string, body: SpawnAgentBody, options?: CommandOptions) {
    const { agent_id: childId, ...rest } = body;
    return this.command<CommandReply<'/v1/agents/{agent_id}/spawn', 'post'>>(
      {
        name: 'spawn',
        kind: 'command',
        agentId: parentId,
        http: { method: 'POST', path: route('agents', parentId, 'spawn'), body },
        grpc: {
          rpc: 'SpawnAgent',
          request: { agent_id: parentId, ...rest, ...(childId !== undefined && { child_agent_id: childId }) },
        },
      },
      options,
    );
  }

  /** The delegations of an agent, both ways (the children it delegated to, the parent it works for). */
  listDelegations(agentId: string, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}/delegations', 'get'>>(
      {
        name: 'listDelegations',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'delegations') },
        grpc: { rpc: 'ListDelegations', request: { agent_id: agentId } },
      },
      options,
    );
  }
}
