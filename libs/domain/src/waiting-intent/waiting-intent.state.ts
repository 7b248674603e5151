// NOTE: stored format. These literals appear in events, snapshots and read models.

export type WaitScope = 'work_item' | 'agent';
export const WAIT_SCOPES: readonly WaitScope[] = ['work_item', 'agent'];

export type WaitWake = 'operator_input' | 'task_result' | 'external' | 'timer';
export const WAIT_WAKES: readonly WaitWake[] = ['operator_input', 'task_result', 'external', 'timer'];

export type DeliveryMode = 'wake_hint' | 'enqueue_message';
export const DELIVERY_MODES: readonly DeliveryMode[] = ['wake_hint', 'enqueue_message'];

export type WaitingIntentStatus = 'active' | 'cancelled' | 'resolved';

/** Why an intent was cancelled (it ended without being satisfied). */
export type WaitingIntentCancelReason =
  'wait_for_replaced' | 'blocker_cleared' | 'work_item_completed' | 'cancelled_by_caller';

/** What satisfied an intent: its task's terminal status, or its one-shot timer's firing. */
export type WaitingIntentResolveReason = 'task_result' | 'timer_fired';

/** How a trigger reached the runtime: the authenticated API, the callback capability, or a bound timer. */
export type TriggerVia = 'api' | 'callback' | 'timer';
export const TRIGGER_VIAS_FROM_CALLERS: readonly TriggerVia[] = ['api', 'callback'];

/** Provenance of the newest trigger. */
export type TriggerProvenance = { source: string; event_id: string | null; via: TriggerVia };

export type WaitingIntentRecord = {
  id: string;
  scope: WaitScope;
  work_item_id: string | null;
  wake: WaitWake;
  reason: string;
  source: string | null;
  resource: string | null;
  condition: string | null;
  fire_at: string | null;
  delivery_mode: DeliveryMode;
  status: WaitingIntentStatus;
  /** "Triggered" is derived: trigger_count > 0. */
  trigger_count: number;
  last_triggered_at: string | null;
  /** Hash of the capability token; the token itself is never stored. */
  callback_token_hash: string | null;
  created_at: string;
  updated_at: string;
  /** The timer a `wake: timer` intent created (fires it), else null. */
  timer_id: string | null;
  last_trigger: TriggerProvenance | null;
  /**
   * The `event_id` of every trigger it counted, while it is active: a redelivered event counts
   * once however many commands came between (the command window forgets; the intent does not).
   * Emptied when the intent ends (it counts nothing more). Never shown (the views leave it out).
   */
  event_ids: string[];
  /** When and why the intent stopped being active (cancellation reason, `task_result` or `timer_fired`). */
  ended_at: string | null;
  end_reason: WaitingIntentCancelReason | WaitingIntentResolveReason | null;
};
