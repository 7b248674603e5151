import type { CommandOptions, ReadOptions } from './client-base';
import { changeFrame, eventFrame, eventItem, messageBody } from './grpc/messages';
import type { StreamFrame, StreamOptions } from './http/sse';
import { route } from './operation';
import type {
  ActivationBody,
  CommandReply,
  ControlBody,
  EnqueueMessageBody,
  JsonObject,
  QueryOf,
  RecordRoundBody,
  Reply,
  TurnHeartbeatBody,
  TurnTerminalBody,
} from './types';
import { WaitingClient } from './waiting-client';
import { int } from './work-client';

/** A frame of the changes feed: one per event of the token's agents once the read models include it. */
export interface ChangeFrameData {
  agent_id: string;
  revision: string;
  position: string;
  type: string;
}

/**
 * The runtime's client: `new RuntimeClient({ url, token, transport: 'http' | 'grpc' })`. Every
 * command carries an Idempotency-Key (yours, else a generated UUID kept across retries);
 * network errors, 429 and the retryable 503s are retried with jittered backoff; a refusal is a
 * RuntimeApiError; reads of an agent after this client's own writes to it pass `min_position`.
 */
export class RuntimeClient extends WaitingClient {
  enqueueMessage(agentId: string, body: EnqueueMessageBody, options?: CommandOptions) {
    const { correlation_id, ...fields } = body;
    const request = {
      agent_id: agentId,
      ...fields,
      body: messageBody(body.body),
      message_correlation_id: correlation_id,
    };
    return this.command<CommandReply<'/v1/agents/{agent_id}/messages', 'post'>>(
      {
        name: 'enqueueMessage',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'messages'), body },
        grpc: { rpc: 'EnqueueMessage', request },
      },
      options,
    );
  }

  listMessages(agentId: string, query: QueryOf<'/v1/agents/{agent_id}/messages', 'get'> = {}, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}/messages', 'get'>>(
      {
        name: 'listMessages',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'messages'), query },
        grpc: { rpc: 'ListMessages', request: { agent_id: agentId, ...query, limit: int(query.limit) } },
      },
      options,
    );
  }

  dropMessage(agentId: string, messageId: string, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/messages/{message_id}', 'delete'>>(
      {
        name: 'dropMessage',
        kind: 'command',
        agentId,
        http: { method: 'DELETE', path: route('agents', agentId, 'messages', messageId) },
        grpc: { rpc: 'DropMessage', request: { agent_id: agentId, message_id: messageId } },
      },
      options,
    );
  }

  /** start, stop, pause or resume the agent. */
  control(agentId: string, body: ControlBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/control', 'post'>>(
      {
        name: 'control',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'control'), body },
        grpc: { rpc: 'Control', request: { agent_id: agentId, ...body } },
      },
      options,
    );
  }

  /**
   * One scheduler step; a StartModelTurn decision opens a turn (`turn`, `message`, `context`).
   * With `wait_ms` a long poll: the server waits up to that long for a step that opens a turn,
   * and each attempt's timeout (the gRPC deadline) is `requestTimeoutMs` on top of it.
   */
  activate(agentId: string, body: ActivationBody = {}, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/activations', 'post'>>(
      {
        name: 'activate',
        kind: 'command',
        agentId,
        longPollMs: body.wait_ms,
        http: { method: 'POST', path: route('agents', agentId, 'activations'), body },
        grpc: { rpc: 'Activate', request: { agent_id: agentId, ...body } },
      },
      options,
    );
  }

  /** Renews the turn's lease; hands over interjections and says whether to stop (`cancel_requested`). */
  heartbeatTurn(agentId: string, turnId: string, body: TurnHeartbeatBody = {}, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/turns/{turn_id}/heartbeat', 'post'>>(
      {
        name: 'heartbeatTurn',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'turns', turnId, 'heartbeat'), body },
        grpc: { rpc: 'Heartbeat', request: { agent_id: agentId, turn_id: turnId, ...body } },
      },
      options,
    );
  }

  /** Records a round (its text and tool calls) before its tools run. */
  recordRound(agentId: string, turnId: string, body: RecordRoundBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/turns/{turn_id}/rounds', 'post'>>(
      {
        name: 'recordRound',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'turns', turnId, 'rounds'), body },
        grpc: { rpc: 'RecordRound', request: { agent_id: agentId, turn_id: turnId, ...body } },
      },
      options,
    );
  }

  closeRound(agentId: string, turnId: string, roundId: string, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/turns/{turn_id}/rounds/{round_id}/close', 'post'>>(
      {
        name: 'closeRound',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'turns', turnId, 'rounds', roundId, 'close') },
        grpc: { rpc: 'CloseRound', request: { agent_id: agentId, turn_id: turnId, round_id: roundId } },
      },
      options,
    );
  }

  /** Ends the turn: completed, aborted, failed, interrupted or baseline_over_budget. */
  postTerminal(agentId: string, turnId: string, body: TurnTerminalBody, options?: CommandOptions) {
    return this.command<CommandReply<'/v1/agents/{agent_id}/turns/{turn_id}/terminal', 'post'>>(
      {
        name: 'postTerminal',
        kind: 'command',
        agentId,
        http: { method: 'POST', path: route('agents', agentId, 'turns', turnId, 'terminal'), body },
        grpc: { rpc: 'TurnTerminal', request: { agent_id: agentId, turn_id: turnId, ...body } },
      },
      options,
    );
  }

  /** The scheduler projection, `next_decision` and the projection lag. */
  getState(agentId: string, options?: ReadOptions) {
    return this.agentRead<Reply<'/v1/agents/{agent_id}/state', 'get'>>(
      'getState',
      agentId,
      'state',
      'GetState',
      {},
      options,
    );
  }

  getContext(agentId: string, query: QueryOf<'/v1/agents/{agent_id}/context', 'get'> = {}, options?: ReadOptions) {
    const request = { budget: int(query.budget) };
    return this.agentRead<Reply<'/v1/agents/{agent_id}/context', 'get'>>(
      'getContext',
      agentId,
      'context',
      'GetContext',
      request,
      options,
      query,
    );
  }

  listDecisions(agentId: string, query: QueryOf<'/v1/agents/{agent_id}/decisions', 'get'> = {}, options?: ReadOptions) {
    const request = { limit: int(query.limit) };
    return this.agentRead<Reply<'/v1/agents/{agent_id}/decisions', 'get'>>(
      'listDecisions',
      agentId,
      'decisions',
      'ListDecisions',
      request,
      options,
      query,
    );
  }

  listBriefs(agentId: string, query: QueryOf<'/v1/agents/{agent_id}/briefs', 'get'> = {}, options?: ReadOptions) {
    const request = { ...query, limit: int(query.limit) };
    return this.agentRead<Reply<'/v1/agents/{agent_id}/briefs', 'get'>>(
      'listBriefs',
      agentId,
      'briefs',
      'ListBriefs',
      request,
      options,
      query,
    );
  }

  listDeliverySummaries(
    agentId: string,
    query: QueryOf<'/v1/agents/{agent_id}/delivery-summaries', 'get'> = {},
    options?: ReadOptions,
  ) {
    const request = { ...query, limit: int(query.limit) };
    return this.agentRead<Reply<'/v1/agents/{agent_id}/delivery-summaries', 'get'>>(
      'listDeliverySummaries',
      agentId,
      'delivery-summaries',
      'ListDeliverySummaries',
      request,
      options,
      query,
    );
  }

  /** A page of the agent's stream, ascending (`after` exclusive). */
  readEvents(agentId: string, query: QueryOf<'/v1/agents/{agent_id}/events', 'get'> = {}, options?: ReadOptions) {
    return this.read<Reply<'/v1/agents/{agent_id}/events', 'get'>>(
      {
        name: 'readEvents',
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, 'events'), query },
        grpc: {
          rpc: 'ReadEvents',
          request: { agent_id: agentId, after: query.after, limit: int(query.limit) },
          reply: (reply) => ({
            ...reply,
            items: ((reply.items ?? []) as Array<Record<string, unknown>>).map(eventItem),
          }),
        },
      },
      options,
    );
  }

  /** The agent's events as they are appended (backlog after `after` first), resuming after drops. */
  agentEvents(agentId: string, options: StreamOptions = {}): AsyncGenerator<StreamFrame<JsonObject>> {
    const grpc = { rpc: 'WatchEvents', request: (after?: string) => ({ agent_id: agentId, after }), frame: eventFrame };
    return this.stream<JsonObject>(route('agents', agentId, 'events', 'stream'), options, grpc);
  }

  /** The changes feed across the token's agents (admin: all), resuming after drops. */
  changes(options: StreamOptions = {}): AsyncGenerator<StreamFrame<ChangeFrameData>> {
    const grpc = { rpc: 'WatchChanges', request: (after?: string) => ({ after }), frame: changeFrame<ChangeFrameData> };
    return this.stream<ChangeFrameData>(route('changes'), options, grpc);
  }

  private agentRead<T>(
    name: string,
    agentId: string,
    segment: string,
    rpc: string,
    request: Record<string, unknown>,
    options: ReadOptions | undefined,
    query?: Record<string, string | number | undefined>,
  ): Promise<T> {
    return this.read<T>(
      {
        name,
        kind: 'read',
        agentId,
        http: { method: 'GET', path: route('agents', agentId, segment), query },
        grpc: { rpc, request: { agent_id: agentId, ...request } },
      },
      options,
    );
  }
}
