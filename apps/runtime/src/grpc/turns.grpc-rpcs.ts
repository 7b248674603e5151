import { CommandBus } from '@nestjs/cqrs';
import type { CommandEnvelope } from '@app/application';
import { ActivateAgentCommand } from '@app/application';
import { CloseRoundCommand, EndTurnCommand, RecordRoundCommand, TurnHeartbeatCommand } from '@app/application';
import type { RpcRequest } from '@app/contracts';
import { ActivationDto } from '@app/contracts';
import { HeartbeatDto, RecordRoundDto, TurnTerminalDto } from '@app/contracts';
import { type GrpcCallContext, GrpcService } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { requireId } from './grpc-envelope';
import { checked } from './grpc-requests';
import { GrpcCommand } from './grpc-rpc.decorators';

/** The agent host's turn RPCs of `agent_runtime.v1.AgentRuntime`: activations, heartbeats, rounds, terminals. */
@GrpcService(AGENT_RUNTIME_GRPC)
export class TurnRpcs {
  constructor(private readonly commands: CommandBus) {}

  @GrpcCommand('Activate')
  async activate(request: RpcRequest<'Activate'>, envelope: CommandEnvelope, { signal }: GrpcCallContext) {
    const { lease_ttl_ms, context_budget, wait_ms } = await checked(ActivationDto, {
      lease_ttl_ms: request.lease_ttl_ms,
      context_budget: request.context_budget,
      wait_ms: request.wait_ms,
    });
    return this.commands.execute(
      new ActivateAgentCommand(envelope, { lease_ttl_ms, context_budget_tokens: context_budget, wait_ms, signal }),
    );
  }

  @GrpcCommand('Heartbeat')
  async heartbeat(request: RpcRequest<'Heartbeat'>, envelope: CommandEnvelope) {
    const turnId = requireId('turn_id', request.turn_id);
    const { lease_ttl_ms } = await checked(HeartbeatDto, { lease_ttl_ms: request.lease_ttl_ms });
    return this.commands.execute(new TurnHeartbeatCommand(envelope, turnId, lease_ttl_ms));
  }

  @GrpcCommand('RecordRound')
  async recordRound(request: RpcRequest<'RecordRound'>, envelope: CommandEnvelope) {
    const turnId = requireId('turn_id', request.turn_id);
    const tool_calls = request.tool_calls.map(({ tool_call_id, name }) => ({ tool_call_id, name }));
    const input = await checked(RecordRoundDto, { round_id: request.round_id, text: request.text, tool_calls });
    return this.commands.execute(new RecordRoundCommand(envelope, turnId, input));
  }

  @GrpcCommand('CloseRound')
  async closeRound(request: RpcRequest<'CloseRound'>, envelope: CommandEnvelope) {
    const [turnId, roundId] = [requireId('turn_id', request.turn_id), requireId('round_id', request.round_id)];
    return this.commands.execute(new CloseRoundCommand(envelope, turnId, roundId));
  }

  @GrpcCommand('TurnTerminal')
  async turnTerminal(request: RpcRequest<'TurnTerminal'>, envelope: CommandEnvelope) {
    const turnId = requireId('turn_id', request.turn_id);
    const input = await checked(TurnTerminalDto, {
      terminal_kind: request.terminal_kind,
      last_assistant_message: request.last_assistant_message,
    });
    return this.commands.execute(new EndTurnCommand(envelope, turnId, input));
  }
}
