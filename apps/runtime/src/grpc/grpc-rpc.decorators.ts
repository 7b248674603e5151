import { rolesOf, type CommandEnvelope } from '@app/application';
import type { AgentRuntimeRpc, CommandRequestFields, RpcRequest } from '@app/contracts';
import { GrpcUnary, type GrpcCallContext } from '@app/platform';
import { commandEnvelopeOf, requireId } from './grpc-envelope';

type Handler<M extends AgentRuntimeRpc, Extra> = (
  request: RpcRequest<M>,
  extra: Extra,
  context: GrpcCallContext,
) => Promise<unknown>;

/**
 * Binds the method to RPC `rpc`, called as `(request, context)` by the host, through `call`, with
 * the roles OPERATION_ROLES gives it (every role for a read): the same as its HTTP route's.
 */
function bind<M extends AgentRuntimeRpc, Extra>(
  rpc: M,
  call: (
    handle: Handler<M, Extra>,
    self: unknown,
    request: RpcRequest<M>,
    context: GrpcCallContext,
  ) => Promise<unknown>,
) {
  return <T extends Handler<M, Extra>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<T>,
  ): void => {
    const handle = descriptor.value!;
    const wrapped = function (this: unknown, request: RpcRequest<M>, context: GrpcCallContext) {
      return call(handle, this, request, context);
    };
    descriptor.value = wrapped as unknown as T;
    GrpcUnary(rpc, { roles: rolesOf(rpc) })(target, key, descriptor);
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

/** A read RPC on one agent: the method gets the request and its agent_id, checked against the id pattern. */
export function GrpcAgentQuery<M extends AgentRuntimeRpc>(
  rpc: M & (RpcRequest<M> extends { agent_id: string } ? unknown : never),
) {
  return bind<M, string>(rpc, (handle, self, request, context) =>
    handle.call(self, request, requireId('agent_id', (request as { agent_id: string }).agent_id), context),
  );
}
