// Original file: proto/agent_runtime.proto

import type { Long } from '@grpc/proto-loader';

export interface Timer {
  'id'?: (string);
  'fire_at'?: (string);
  /**
   * "scheduled" | "fired" | "cancelled"
   */
  'status'?: (string);
  'work_item_id'?: (string);
  /**
   * Milliseconds, as a decimal string (up to 366 days).
   */
  'interval_ms'?: (number | string | Long);
  'resume_text'?: (string);
  'intent_id'?: (string);
  'fire_count'?: (number);
  'last_fired_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  /**
   * Scheduled and fire_at has come (against the server clock); set by ListTimers only.
   */
  'due'?: (boolean);
  /**
   * The due periods of an interval timer skipped so far (held while stopped or paused, or overdue after a restart).
   */
  'missed_periods'?: (number);
  '_work_item_id'?: "work_item_id";
  '_interval_ms'?: "interval_ms";
  '_resume_text'?: "resume_text";
  '_intent_id'?: "intent_id";
  '_last_fired_at'?: "last_fired_at";
  '_due'?: "due";
}

export interface Timer__Output {
  'id': (string);
  'fire_at': (string);
  /**
   * "scheduled" | "fired" | "cancelled"
   */
  'status': (string);
  'work_item_id'?: (string);
  /**
   * Milliseconds, as a decimal string (up to 366 days).
   */
  'interval_ms'?: (string);
  'resume_text'?: (string);
  'intent_id'?: (string);
  'fire_count': (number);
  'last_fired_at'?: (string);
  'created_at': (string);
  'updated_at': (string);
  /**
   * Scheduled and fire_at has come (against the server clock); set by ListTimers only.
   */
  'due'?: (boolean);
  /**
   * The due periods of an interval timer skipped so far (held while stopped or paused, or overdue after a restart).
   */
  'missed_periods': (number);
  '_work_item_id'?: "work_item_id";
  '_interval_ms'?: "interval_ms";
  '_resume_text'?: "resume_text";
  '_intent_id'?: "intent_id";
  '_last_fired_at'?: "last_fired_at";
  '_due'?: "due";
}
