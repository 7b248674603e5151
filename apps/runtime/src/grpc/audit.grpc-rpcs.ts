import { Inject } from '@nestjs/common';
import {
  AGENT_EVENTS_READER,
  type AgentEventsReader,
  CHANGES_FEED,
  type ChangesFeed,
  changeScopeOf,
  rolesOf,
  toChangeItem,
  toEventItem,
} from '@app/application';
import type { RpcRequest } from '@app/contracts';
import { GrpcServerStream, GrpcService, type GrpcStreamContext } from '@app/platform';
import { parseAfter } from '../audit/audit-params';
import { wireError } from '../audit/event-stream';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { callerOf } from './grpc-envelope';
import { GrpcAgentQuery, GrpcAgentStream } from './grpc-rpc.decorators';

/** Maps what the iterable throws as the HTTP routes do (an unreadable event names itself). */
async function* wired<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* items;
  } catch (error) {
    throw wireError(error);
  }
}

async function* mapped<T, R>(items: AsyncIterable<T>, map: (item: T) => R): AsyncGenerator<R> {
  for await (const item of items) yield map(item);
}

/**
 * The audit RPCs of `agent_runtime.v1.AgentRuntime`: the agent's stream paged (ReadEvents) and
 * live (WatchEvents), and the changes feed (WatchChanges). The same readers, cursors, checks
 * and items as the HTTP routes (AgentEventsController, ChangesController): only the framing
 * differs (messages of a server stream instead of server-sent events).
 */
@GrpcService(AGENT_RUNTIME_GRPC)
export class AuditRpcs {
  constructor(
    @Inject(AGENT_EVENTS_READER) private readonly reader: AgentEventsReader,
    @Inject(CHANGES_FEED) private readonly feed: ChangesFeed,
  ) {}

  @GrpcAgentQuery('ReadEvents', { storeRead: true })
  async readEvents(request: RpcRequest<'ReadEvents'>, agentId: string) {
    try {
      return await this.reader.page(agentId, parseAfter(request.after), request.limit);
    } catch (error) {
      throw wireError(error);
    }
  }

  /** Checks the cursor and the agent before the stream starts (INVALID_ARGUMENT, NOT_FOUND), as the HTTP route does. */
  @GrpcAgentStream('WatchEvents')
  async watchEvents(request: RpcRequest<'WatchEvents'>, { agentId, signal }: { agentId: string; signal: AbortSignal }) {
    const after = parseAfter(request.after);
    await this.reader.assertExists(agentId);
    return wired(mapped(this.reader.follow(agentId, after, signal), toEventItem));
  }

  /** The start point is fixed before the call returns: "from now on" is the store's head now. */
  @GrpcServerStream('WatchChanges', { roles: rolesOf('WatchChanges'), agentIdField: null })
  async watchChanges(request: RpcRequest<'WatchChanges'>, context: GrpcStreamContext) {
    const scope = changeScopeOf(callerOf(context));
    const from = parseAfter(request.after, 'after', 'a global position') ?? (await this.feed.now());
    return wired(mapped(this.feed.follow(scope, from, context.signal), toChangeItem));
  }
}
