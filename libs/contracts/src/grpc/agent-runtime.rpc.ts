import type { MethodDefinition } from '@grpc/proto-loader';
import type { AgentRuntimeDefinition } from './generated/agent_runtime/v1/AgentRuntime';

/*
 * Typed names for the generated types of agent_runtime.proto (see proto-types.ts): an RPC's
 * request as the loader hands it to the handler, by the RPC's name.
 */

/** The RPC names of `agent_runtime.v1.AgentRuntime`. */
export type AgentRuntimeRpc = keyof AgentRuntimeDefinition;

/** What @grpc/proto-loader hands the handler of RPC `M` (with PROTO_LOADER_OPTIONS). */
export type RpcRequest<M extends AgentRuntimeRpc> =
  AgentRuntimeDefinition[M] extends MethodDefinition<infer _In, infer _Out, infer Request, infer _Reply>
    ? Request
    : never;

/** The command envelope fields (1..4) that every command request repeats. */
export type CommandRequestFields = Pick<
  RpcRequest<'CreateWorkItem'>,
  'agent_id' | 'command_id' | 'expected_revision' | 'correlation_id'
>;

export type { MessageBody__Output as MessageBodyMessage } from './generated/agent_runtime/v1/MessageBody';
export type { TodoItem__Output as TodoItemMessage } from './generated/agent_runtime/v1/TodoItem';
