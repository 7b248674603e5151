// NOTE: stored format. These literals appear in events, snapshots and read models.

/** `scheduled` until it fires (an interval timer stays scheduled, re-armed) or is cancelled. */
export type TimerStatus = 'scheduled' | 'fired' | 'cancelled';

export type TimerRecord = {
  id: string;
  /** The next instant the timer is due (for a fired one-shot timer: when it was due). */
  fire_at: string;
  status: TimerStatus;
  work_item_id: string | null;
  interval_ms: number | null;
  resume_text: string | null;
  /** The `wake: timer` waiting intent this timer serves, else null. */
  intent_id: string | null;
  fire_count: number;
  last_fired_at: string | null;
  /** Due periods of an interval timer skipped so far (held while stopped or paused, or overdue after a restart). */
  missed_periods: number;
  created_at: string;
  updated_at: string;
};
