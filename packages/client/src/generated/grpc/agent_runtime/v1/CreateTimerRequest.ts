// Original file: proto/agent_runtime.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateTimerRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Exactly one of fire_at (RFC 3339) and duration_ms.
   */
  'fire_at'?: (string);
  'duration_ms'?: (number | string | Long);
  'interval_ms'?: (number | string | Long);
  'work_item_id'?: (string);
  'resume_text'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_fire_at'?: "fire_at";
  '_duration_ms'?: "duration_ms";
  '_interval_ms'?: "interval_ms";
  '_work_item_id'?: "work_item_id";
  '_resume_text'?: "resume_text";
}

export interface CreateTimerRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Exactly one of fire_at (RFC 3339) and duration_ms.
   */
  'fire_at'?: (string);
  'duration_ms'?: (string);
  'interval_ms'?: (string);
  'work_item_id'?: (string);
  'resume_text'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_fire_at'?: "fire_at";
  '_duration_ms'?: "duration_ms";
  '_interval_ms'?: "interval_ms";
  '_work_item_id'?: "work_item_id";
  '_resume_text'?: "resume_text";
}
