import { Injectable } from '@nestjs/common';
import { ActivateAgentCommand, CloseRoundCommand, EndTurnCommand, RecordRoundCommand, TurnHeartbeatCommand } from '@app/application';
import type * as Rpc from '@app/contracts';
import { ActivationDto, HeartbeatDto, RecordRoundDto, TurnTerminalDto } from '@app/contracts';
import { GrpcUnary, type GrpcCallContext } from '@app/platform';
import { commandEnvelopeOf, requireId } from './grpc-envelope';
import { absentIfNull } from './grpc-replies';
import { toActivateReply, toActivationTurn, toBrief, toClosedRound, toPromotionReply, toRound, toTurn } from './grpc-turn-replies';
import { commandReply, toQueuedMessage } from './grpc-waiting-replies';
import { checked } from './grpc-waiting-requests';
import { RuntimeRecordRpcs } from './runtime-records.grpc-rpcs';

/** The agent host's turn RPCs of `agent_runtime.v1.AgentRuntime` (see WaitingPlaneRpcs for the class chain). */
@Injectable()
export class TurnRpcs extends RuntimeRecordRpcs {
  @GrpcUnary('Activate')
  async activate(request: Rpc.ActivateRequest, context: GrpcCallContext): Promise<Rpc.ActivateReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const { lease_ttl_ms, context_budget } = await checked(ActivationDto, { lease_ttl_ms: request.lease_ttl_ms, context_budget: request.context_budget });
    return toActivateReply(await this.commands.execute(new ActivateAgentCommand(envelope, { lease_ttl_ms, context_budget_tokens: context_budget })));
  }

  @GrpcUnary('Heartbeat')
  async heartbeat(request: Rpc.HeartbeatRequest, context: GrpcCallContext): Promise<Rpc.HeartbeatReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const turnId = requireId('turn_id', request.turn_id);
    const { lease_ttl_ms } = await checked(HeartbeatDto, { lease_ttl_ms: request.lease_ttl_ms });
    const reply = await this.commands.execute(new TurnHeartbeatCommand(envelope, turnId, lease_ttl_ms));
    return commandReply(reply, { turn: toActivationTurn(reply.turn), interjections: reply.interjections.map(toQueuedMessage) });
  }

  @GrpcUnary('RecordRound')
  async recordRound(request: Rpc.RecordRoundRequest, context: GrpcCallContext): Promise<Rpc.RecordRoundReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const turnId = requireId('turn_id', request.turn_id);
    const tool_calls = request.tool_calls.map(({ tool_call_id, name }) => ({ tool_call_id, name }));
    const input = await checked(RecordRoundDto, { round_id: request.round_id, text: request.text, tool_calls });
    const reply = await this.commands.execute(new RecordRoundCommand(envelope, turnId, input));
    return commandReply(reply, { round: toRound(reply.round), closed_round: toClosedRound(reply.closed_round) });
  }

  @GrpcUnary('CloseRound')
  async closeRound(request: Rpc.CloseRoundRequest, context: GrpcCallContext): Promise<Rpc.CloseRoundReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const [turnId, roundId] = [requireId('turn_id', request.turn_id), requireId('round_id', request.round_id)];
    return toPromotionReply(await this.commands.execute(new CloseRoundCommand(envelope, turnId, roundId)));
  }

  @GrpcUnary('TurnTerminal')
  async turnTerminal(request: Rpc.TurnTerminalRequest, context: GrpcCallContext): Promise<Rpc.TurnTerminalReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const turnId = requireId('turn_id', request.turn_id);
    const input = await checked(TurnTerminalDto, { terminal_kind: request.terminal_kind, last_assistant_message: request.last_assistant_message });
    const reply = await this.commands.execute(new EndTurnCommand(envelope, turnId, input));
    return commandReply(reply, {
      turn: toTurn(reply.turn), message: reply.message === null ? undefined : toQueuedMessage(reply.message),
      brief: reply.brief === null ? undefined : toBrief(reply.brief), closed_round: toClosedRound(reply.closed_round),
      recovery: absentIfNull(reply.recovery),
    });
  }
}
