import { Command, Query } from '@nestjs/cqrs';
import type { CancelTimerReply, ListReply, TimerListQuery, TimerReply, TimerView } from '@app/domain';
import type { CommandEnvelope, WithRevision } from '../agents/agent-command.service';

export interface CreateTimerInput {
  /** Exactly one of fire_at and duration_ms (the domain checks it). */
  fire_at?: string;
  duration_ms?: number;
  interval_ms?: number;
  work_item_id?: string;
  resume_text?: string;
}

export class CreateTimerCommand extends Command<WithRevision<TimerReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly input: CreateTimerInput,
  ) {
    super();
  }
}

/** Idempotent: cancelling a fired or cancelled timer records nothing (`cancelled: false`). */
export class CancelTimerCommand extends Command<WithRevision<CancelTimerReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly timerId: string,
  ) {
    super();
  }
}

/** `now` is set by the handler from the clock (for `due`). */
export class ListTimersQuery extends Query<ListReply<TimerView>> {
  constructor(
    readonly agentId: string,
    readonly query: Omit<TimerListQuery, 'now'>,
  ) {
    super();
  }
}
