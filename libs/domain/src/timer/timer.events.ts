import { eventGuard } from '../shared/event-guard';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type TimerCreated = {
  type: 'TimerCreated';
  data: {
    agent_id: string;
    timer_id: string;
    fire_at: string;
    interval_ms: number | null;
    work_item_id: string | null;
    resume_text: string | null;
    /** The `wake: timer` intent this timer serves, else null. */
    intent_id: string | null;
    at: string;
  };
};

export type TimerCancelReason = 'cancelled_by_caller' | 'waiting_intent_ended';

export type TimerCancelled = {
  type: 'TimerCancelled';
  data: {
    agent_id: string;
    timer_id: string;
    work_item_id: string | null;
    intent_id: string | null;
    reason: TimerCancelReason;
    at: string;
  };
};

export type TimerFired = {
  type: 'TimerFired';
  data: {
    agent_id: string;
    timer_id: string;
    work_item_id: string | null;
    intent_id: string | null;
    /** The due instant that fired. */
    fire_at: string;
    fired_at: string;
    /** The timer's count after this fire. */
    fire_count: number;
    /** Interval timers: the re-armed due instant; null for a one-shot timer (now fired). */
    next_fire_at: string | null;
    /**
     * Interval timers: the due periods skipped by this fire besides its own (overdue after a
     * restart, or held while the agent was stopped or paused); 0 for an on-time fire. Absent for a
     * one-shot timer and on events recorded before it existed (read as 0).
     */
    missed_periods?: number;
    message_id: string;
    at: string;
  };
};

export type TimerEvent = TimerCreated | TimerCancelled | TimerFired;

export const isTimerEvent = eventGuard<TimerEvent>(['TimerCreated', 'TimerCancelled', 'TimerFired']);
