import { Command } from '@nestjs/cqrs';
import type {
  CancelWaitingIntentReply,
  DeliveryMode,
  MessageBody,
  SubmitWakeHintReply,
  TriggerWaitingIntentReply,
  WaitForReply,
  WaitWake,
} from '@app/domain';
import type { CommandEnvelope, WithRevision } from '../agents/agent-command.service';

// One command class per API command of the waiting plane; the reply type travels with it.

export interface WaitForInput {
  wake: WaitWake;
  reason: string;
  resource?: string;
  source?: string;
  condition?: string;
  fire_at?: string;
  delivery_mode?: DeliveryMode;
}

/** `callback_token` only in the first reply of an external wait: the token is shown once, never stored. */
export type WaitForResult = WithRevision<WaitForReply> & { callback_token?: string };

/** `workItemId` null: agent scope (`POST /agents/{a}/waits`). */
export class WaitForCommand extends Command<WaitForResult> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly workItemId: string | null,
    readonly input: WaitForInput,
  ) {
    super();
  }
}

export interface TriggerInput {
  source: string;
  payload?: MessageBody;
  event_id?: string;
}

/** Authenticated route: a cancelled or resolved intent is 409 `conflict` with `details.status`. */
export class TriggerWaitingIntentCommand extends Command<WithRevision<TriggerWaitingIntentReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly intentId: string,
    readonly input: TriggerInput,
  ) {
    super();
  }
}

/** What a callback capability holder learns: that its event was recorded, nothing of the agent. */
export type CallbackReply = {
  status: 'triggered';
  waiting_intent_id: string;
  trigger_count: number;
  last_triggered_at: string | null;
  warnings: [];
  revision: string | null;
  position: string | null;
};

/** The capability form of a trigger (`POST /callbacks/{token}`): the token is the only credential. */
export class CallbackCommand extends Command<CallbackReply> {
  constructor(
    readonly token: string,
    readonly input: TriggerInput,
    readonly idempotencyKey?: string,
  ) {
    super();
  }
}

export class CancelWaitingIntentCommand extends Command<WithRevision<CancelWaitingIntentReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly intentId: string,
    readonly note?: string,
  ) {
    super();
  }
}

export interface WakeHintInput {
  source: string;
  reason: string;
  body?: MessageBody;
}

export class SubmitWakeHintCommand extends Command<WithRevision<SubmitWakeHintReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly input: WakeHintInput,
  ) {
    super();
  }
}
