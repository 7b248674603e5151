import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  CallbackCommand, CancelWaitingIntentCommand, SubmitWakeHintCommand, TriggerWaitingIntentCommand, WaitForCommand, ListWaitingIntentsQuery,
} from '@app/application';
import type * as Rpc from '@app/contracts';
import { CancelWaitingIntentDto, ListWaitingIntentsQueryDto } from '@app/contracts';
import { GrpcUnary, type GrpcCallContext } from '@app/platform';
import { commandEnvelopeOf, requireId } from './grpc-envelope';
import { absentIfNull, toWaitingIntent } from './grpc-replies';
import { commandReply, toList, toQueuedMessage, toTriggerReply, toWaitForReply } from './grpc-waiting-replies';
import { checked, listQuery, triggerInput, waitForInput, wakeHintInput } from './grpc-waiting-requests';

/**
 * The waiting-plane RPCs of `agent_runtime.v1.AgentRuntime`. grpc-js takes one implementation
 * per service, so the service's RPCs are split by slice over a chain of classes that ends in
 * AgentRuntimeGrpcService (the one @GrpcService). Thin like the controllers.
 */
@Injectable()
export class WaitingPlaneRpcs {
  constructor(protected readonly commands: CommandBus, protected readonly queries: QueryBus) {}

  @GrpcUnary('WaitFor')
  async waitFor(request: Rpc.WaitForRequest, context: GrpcCallContext): Promise<Rpc.WaitForReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const { workItemId, input } = await waitForInput(request);
    return toWaitForReply(await this.commands.execute(new WaitForCommand(envelope, workItemId, input)));
  }

  @GrpcUnary('ListWaitingIntents')
  async listWaitingIntents(request: Rpc.ListWaitingIntentsRequest): Promise<Rpc.ListWaitingIntentsReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const { status, work_item_id, limit } = request;
    const query = await listQuery(ListWaitingIntentsQueryDto, { status, work_item_id, limit });
    return toList(await this.queries.execute(new ListWaitingIntentsQuery(agentId, query)), toWaitingIntent);
  }

  @GrpcUnary('CancelWaitingIntent')
  async cancelWaitingIntent(request: Rpc.CancelWaitingIntentRequest, context: GrpcCallContext): Promise<Rpc.CancelWaitingIntentReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const intentId = requireId('intent_id', request.intent_id);
    const { note } = await checked(CancelWaitingIntentDto, { note: request.note });
    const reply = await this.commands.execute(new CancelWaitingIntentCommand(envelope, intentId, note));
    return commandReply(reply, { waiting_intent: toWaitingIntent(reply.waiting_intent), cancelled: reply.cancelled });
  }

  @GrpcUnary('TriggerWaitingIntent')
  async triggerWaitingIntent(request: Rpc.TriggerWaitingIntentRequest, context: GrpcCallContext): Promise<Rpc.TriggerWaitingIntentReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const intentId = requireId('intent_id', request.intent_id);
    return toTriggerReply(await this.commands.execute(new TriggerWaitingIntentCommand(envelope, intentId, await triggerInput(request))));
  }

  /** Public: the callback token in the request is the only credential (NOT_FOUND for anything wrong). */
  @GrpcUnary('Callback', { public: true })
  async callback(request: Rpc.CallbackRequest): Promise<Rpc.CallbackReply> {
    const input = await triggerInput(request);
    const reply = await this.commands.execute(new CallbackCommand(request.callback_token ?? '', input, request.command_id));
    return commandReply(reply, {
      status: reply.status, waiting_intent_id: reply.waiting_intent_id, trigger_count: reply.trigger_count,
      last_triggered_at: absentIfNull(reply.last_triggered_at),
    });
  }

  @GrpcUnary('SubmitWakeHint')
  async submitWakeHint(request: Rpc.SubmitWakeHintRequest, context: GrpcCallContext): Promise<Rpc.SubmitWakeHintReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const reply = await this.commands.execute(new SubmitWakeHintCommand(envelope, await wakeHintInput(request)));
    return commandReply(reply, { disposition: reply.disposition, message: reply.message === null ? undefined : toQueuedMessage(reply.message) });
  }
}
