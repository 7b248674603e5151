import { eventGuard } from '../shared/event-guard';
import type { TerminalTaskStatus } from '../task/task.state';
import type { DeliveryMode, TriggerVia, WaitingIntentCancelReason, WaitScope, WaitWake } from './waiting-intent.state';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type WaitingIntentCreated = {
  type: 'WaitingIntentCreated';
  data: {
    agent_id: string;
    intent_id: string;
    scope: WaitScope;
    work_item_id: string | null;
    wake: WaitWake;
    reason: string;
    source: string | null;
    resource: string | null;
    condition: string | null;
    fire_at: string | null;
    delivery_mode: DeliveryMode;
    /** Hash of the capability token the app generated; the token itself is never stored. */
    callback_token_hash: string | null;
    timer_id: string | null;
    at: string;
  };
};

/** An external event (or a bound timer) reached an active intent. It stays active. */
export type WaitingIntentTriggered = {
  type: 'WaitingIntentTriggered';
  data: {
    agent_id: string;
    intent_id: string;
    work_item_id: string | null;
    /** The intent's count after this trigger. */
    trigger_count: number;
    triggered_at: string;
    source: string;
    event_id: string | null;
    provenance: { via: TriggerVia; actor: string | null };
    has_payload: boolean;
    at: string;
  };
};

export type WaitingIntentCancelled = {
  type: 'WaitingIntentCancelled';
  data: {
    agent_id: string;
    intent_id: string;
    work_item_id: string | null;
    reason: WaitingIntentCancelReason;
    /** The caller's free-text note (cancelled_by_caller only). */
    note: string | null;
    at: string;
  };
};

/**
 * A terminal task satisfied a `task_result` intent, or a one-shot timer's firing a `timer`
 * intent (then task_id and task_status are null and timer_id names the timer; events older
 * than timer resolution have no timer_id).
 */
export type WaitingIntentResolved = {
  type: 'WaitingIntentResolved';
  data: {
    agent_id: string;
    intent_id: string;
    work_item_id: string | null;
    task_id: string | null;
    task_status: TerminalTaskStatus | null;
    timer_id?: string | null;
    at: string;
  };
};

export type WaitingIntentEvent =
  WaitingIntentCreated | WaitingIntentTriggered | WaitingIntentCancelled | WaitingIntentResolved;

export const isWaitingIntentEvent = eventGuard<WaitingIntentEvent>([
  'WaitingIntentCreated',
  'WaitingIntentTriggered',
  'WaitingIntentCancelled',
  'WaitingIntentResolved',
]);
