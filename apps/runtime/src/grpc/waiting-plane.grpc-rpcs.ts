import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandEnvelope } from '@app/application';
import {
  CallbackCommand,
  CancelWaitingIntentCommand,
  SubmitWakeHintCommand,
  TriggerWaitingIntentCommand,
  WaitForCommand,
} from '@app/application';
import { ListWaitingIntentsQuery } from '@app/application';
import type { RpcRequest } from '@app/contracts';
import { CancelWaitingIntentDto, ListWaitingIntentsQueryDto } from '@app/contracts';
import { GrpcService, GrpcUnary } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { requireId } from './grpc-envelope';
import { checked, listQuery, triggerInput, waitForInput, wakeHintInput } from './grpc-requests';
import { GrpcAgentQuery, GrpcCommand } from './grpc-rpc.decorators';

/** The waiting-plane RPCs of `agent_runtime.v1.AgentRuntime`: waits, triggers, callbacks and wake hints. */
@GrpcService(AGENT_RUNTIME_GRPC)
export class WaitingPlaneRpcs {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @GrpcCommand('WaitFor')
  async waitFor(request: RpcRequest<'WaitFor'>, envelope: CommandEnvelope) {
    const { workItemId, input } = await waitForInput(request);
    return this.commands.execute(new WaitForCommand(envelope, workItemId, input));
  }

  @GrpcAgentQuery('ListWaitingIntents')
  async listWaitingIntents(request: RpcRequest<'ListWaitingIntents'>, agentId: string) {
    const { status, work_item_id, limit } = request;
    return this.queries.execute(
      new ListWaitingIntentsQuery(
        agentId,
        await listQuery(ListWaitingIntentsQueryDto, { status, work_item_id, limit }),
      ),
    );
  }

  @GrpcCommand('CancelWaitingIntent')
  async cancelWaitingIntent(request: RpcRequest<'CancelWaitingIntent'>, envelope: CommandEnvelope) {
    const intentId = requireId('intent_id', request.intent_id);
    const { note } = await checked(CancelWaitingIntentDto, { note: request.note });
    return this.commands.execute(new CancelWaitingIntentCommand(envelope, intentId, note));
  }

  @GrpcCommand('TriggerWaitingIntent')
  async triggerWaitingIntent(request: RpcRequest<'TriggerWaitingIntent'>, envelope: CommandEnvelope) {
    const intentId = requireId('intent_id', request.intent_id);
    return this.commands.execute(new TriggerWaitingIntentCommand(envelope, intentId, await triggerInput(request)));
  }

  /** Public: the callback token in the request is the only credential (NOT_FOUND for anything wrong). */
  @GrpcUnary('Callback', { public: true })
  async callback(request: RpcRequest<'Callback'>) {
    return this.commands.execute(
      new CallbackCommand(request.callback_token ?? '', await triggerInput(request), request.command_id),
    );
  }

  @GrpcCommand('SubmitWakeHint')
  async submitWakeHint(request: RpcRequest<'SubmitWakeHint'>, envelope: CommandEnvelope) {
    return this.commands.execute(new SubmitWakeHintCommand(envelope, await wakeHintInput(request)));
  }
}
