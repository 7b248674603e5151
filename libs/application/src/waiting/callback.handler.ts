import { hash } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, renderTriggerWaitingIntentReply } from '@app/domain';
import { AgentCommandService, type CommandEnvelope } from '../agents/agent-command.service';
import { callbackTokenMatches, parseCallbackToken } from './callback-token';
import { triggerCommand } from './waiting.builders';
import { CallbackCommand, type CallbackReply } from './waiting.commands';

/** Events of callback triggers name this actor: the capability, never the token. */
export const CALLBACK_ACTOR = 'callback';

/** Malformed, unknown, wrong, cancelled or resolved: one answer, no hint which (decision 0005). */
const unknownCallback = () => new DomainError('not_found', { resource: 'callback' }, 'callback not found');

interface GrantedIntent {
  agentId: string;
  intentId: string;
  tokenHash: string;
}

/**
 * A redelivered webhook must append nothing: with an `event_id` (else the Idempotency-Key), the
 * command id is derived from the intent's token hash and it; without either, every call is new.
 */
function callbackEnvelope(granted: GrantedIntent, dedupeKey: string | undefined): CommandEnvelope {
  const idempotencyKey =
    dedupeKey === undefined ? undefined : `callback:${hash('sha256', `${granted.tokenHash}\u0000${dedupeKey}`)}`;
  return {
    agentId: granted.agentId,
    caller: { tokenName: CALLBACK_ACTOR, agents: [granted.agentId], admin: false },
    idempotencyKey,
  };
}

/** `POST /callbacks/{token}`: the capability form of a trigger, for systems holding no API token. */
@CommandHandler(CallbackCommand)
export class CallbackHandler implements ICommandHandler<CallbackCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  async execute({ token, input, idempotencyKey }: CallbackCommand): Promise<CallbackReply> {
    const granted = await this.grantedIntent(token);
    const envelope = callbackEnvelope(granted, input.event_id ?? idempotencyKey);
    const command = triggerCommand(envelope, this.agents.meta(envelope), granted.intentId, input, 'callback');
    // A redelivery names the same event_id, not always the same body (a sender may leave the
    // payload out): the event id is the identity, so its repeat replays whatever it carries.
    const fingerprint = input.event_id === undefined;
    const reply = await this.agents.run(envelope, command, renderTriggerWaitingIntentReply, { fingerprint });
    if (reply.status !== 'triggered') throw unknownCallback();
    const intent = reply.waiting_intent;
    return {
      status: 'triggered',
      waiting_intent_id: intent.id,
      trigger_count: intent.trigger_count,
      last_triggered_at: intent.last_triggered_at,
      warnings: [],
      revision: reply.revision,
      position: reply.position,
    };
  }

  /** The ids name the one aggregate that may own the token (a consistent read); the hash check grants it. */
  private async grantedIntent(token: string): Promise<GrantedIntent> {
    const claim = parseCallbackToken(token);
    if (claim === null) throw unknownCallback();
    const { state } = await this.agents.load(claim.agentId);
    const tokenHash = state.waiting_intents.get(claim.intentId)?.callback_token_hash ?? null;
    if (tokenHash === null || !callbackTokenMatches(token, tokenHash)) throw unknownCallback();
    return { agentId: claim.agentId, intentId: claim.intentId, tokenHash };
  }
}
