import {
  type AgentEvent,
  type AgentState,
  type CommandMeta,
  type TriggerVia,
  type TriggerWaitingIntent,
  type WaitFor,
  type WaitForReply,
  renderWaitForReply,
} from '@app/domain';
import type { CommandEnvelope, Renderer } from '../agents/agent-command.service';
import { mintCallbackToken, type MintedCallbackToken } from './callback-token';
import { generatedId } from './generated-ids';
import type { TriggerInput, WaitForInput } from './waiting.commands';

/** The domain WaitFor with the ids the app generates, and the capability token an external wait needs. */
export function waitForCommand(
  envelope: CommandEnvelope,
  meta: CommandMeta,
  workItemId: string | null,
  input: WaitForInput,
): { command: WaitFor; token: MintedCallbackToken | null } {
  const intentId = generatedId(envelope, 'wait');
  // docs/domain-contract.md §1/§3: external waits get a capability for the callback route; the domain sees only its hash.
  const token = input.wake === 'external' ? mintCallbackToken(envelope.agentId, intentId) : null;
  const data: WaitFor['data'] = {
    ...input,
    scope: workItemId === null ? 'agent' : 'work_item',
    work_item_id: workItemId ?? undefined,
    intent_id: intentId,
    // The domain requires a timer id for (and only for) timer waits.
    timer_id: input.wake === 'timer' ? generatedId(envelope, 'timer') : undefined,
    callback_token_hash: token?.hash,
  };
  return { command: { type: 'WaitFor', data, meta }, token };
}

/**
 * WaitFor's renderer plus the token, shown only when this very call recorded the intent with
 * its hash. A repeat (same Idempotency-Key) rebuilds the first reply from the stream: the hash
 * there is the first token's, which is never shown again.
 */
export function renderWaitForWithToken(
  token: MintedCallbackToken | null,
): Renderer<WaitFor, WaitForReply & { callback_token?: string }> {
  return (command: WaitFor, before: AgentState, after: AgentState, events: readonly AgentEvent[]) => {
    const reply = renderWaitForReply(command, before, after, events);
    const issued =
      token !== null && after.waiting_intents.get(command.data.intent_id)?.callback_token_hash === token.hash;
    return issued ? { ...reply, callback_token: token.token } : reply;
  };
}

/** The domain trigger; message_id names the callback_event or system_tick its delivery may queue. */
export function triggerCommand(
  envelope: CommandEnvelope,
  meta: CommandMeta,
  intentId: string,
  input: TriggerInput,
  via: Exclude<TriggerVia, 'timer'>,
): TriggerWaitingIntent {
  const data = { intent_id: intentId, ...input, via, message_id: generatedId(envelope, 'msg') };
  return { type: 'TriggerWaitingIntent', data, meta };
}
