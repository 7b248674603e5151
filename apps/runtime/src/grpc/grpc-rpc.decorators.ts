import { parseMinPosition, rolesOf, type CommandEnvelope } from '@app/application';
import type { AgentRuntimeRpc, CommandRequestFields, RpcRequest } from '@app/contracts';
import { GrpcServerStream, GrpcUnary, type GrpcCallContext, type GrpcStreamContext } from '@app/platform';
import { commandEnvelopeOf, requireId } from './grpc-envelope';

type Handler<M extends AgentRuntimeRpc, Extra> = (
  request: RpcRequest<M>,
  extra: Extra,
  context: GrpcCallContext,
) => Promise<unknown>;

/**
 * Binds the method to RPC `rpc`, called as `(request, context)` by the host, through `call`, with
 * the roles OPERATION_ROLES gives it (every role for a read): the same as its HTTP route's.
 * `stream` binds it to a server-streaming RPC (its context then carries the call's signal).
 */
function bind<M extends AgentRuntimeRpc, Extra, Context extends GrpcCallContext = GrpcCallContext>(
  rpc: M,
  call: (handle: Handler<M, Extra>, self: unknown, request: RpcRequest<M>, context: Context) => Promise<unknown>,
  stream = false,
) {
  return <T extends Handler<M, Extra>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<T>,
  ): void => {
    const handle = descriptor.value!;
    const wrapped = function (this: unknown, request: RpcRequest<M>, context: Context) {
      return call(handle, this, request, context);
    };
    descriptor.value = wrapped as unknown as T;
    (stream ? GrpcServerStream : GrpcUnary)(rpc, { roles: rolesOf(rpc) })(target, key, descriptor);
  };
}

/**
 * A command RPC: the method gets the request as the loader hands it (typed from the .proto)
 * and the command envelope every command request carries (agent_id, command_id,
 * expected_revision, correlation_id, the caller), checked as the HTTP edge checks them, then
 * the call's context (its cancellation signal).
 * Its reply is the HTTP body; the host maps it to the response message.
 */
export function GrpcCommand<M extends AgentRuntimeRpc>(
  rpc: M & (RpcRequest<M> extends CommandRequestFields ? unknown : never),
) {
  return bind<M, CommandEnvelope>(rpc, async (handle, self, request, context) =>
    handle.call(self, request, await commandEnvelopeOf(request as CommandRequestFields, context), context),
  );
}

/**
 * A read RPC on one agent: the method gets the request and its agent_id, checked against the id
 * pattern, once the read models include the request's `min_position` (a malformed one is
 * INVALID_ARGUMENT; past the bound UNAVAILABLE `read_model_lagging`), as the HTTP reads do
 * (MinPositionGuard). `storeRead`: the RPC reads the agent's events in the store, which
 * include every write already: `min_position` is checked and ignored.
 */
export function GrpcAgentQuery<M extends AgentRuntimeRpc>(
  rpc: M & (RpcRequest<M> extends { agent_id: string } ? unknown : never),
  options: { storeRead?: boolean } = {},
) {
  return bind<M, string>(rpc, async (handle, self, request, context) => {
    const agentId = requireId('agent_id', (request as { agent_id: string }).agent_id);
    const position = parseMinPosition((request as { min_position?: unknown }).min_position);
    if (position !== null && !options.storeRead) await context.readYourWrites?.reach(agentId, position);
    return handle.call(self, request, agentId, context);
  });
}

/**
 * A server-streaming read on one agent: the method gets the request, its agent_id (checked
 * against the id pattern) and the call's signal, and answers the items to stream (see
 * GrpcServerStream); the token must reach that agent, as on the HTTP route.
 */
export function GrpcAgentStream<M extends AgentRuntimeRpc>(
  rpc: M & (RpcRequest<M> extends { agent_id: string } ? unknown : never),
) {
  return bind<M, { agentId: string; signal: AbortSignal }, GrpcStreamContext>(
    rpc,
    (handle, self, request, context) =>
      handle.call(
        self,
        request,
        { agentId: requireId('agent_id', (request as { agent_id: string }).agent_id), signal: context.signal },
        context,
      ),
    true,
  );
}
