// Original file: proto/agent_runtime.proto

import type { MessageBody as _agent_runtime_v1_MessageBody, MessageBody__Output as _agent_runtime_v1_MessageBody__Output } from '../../agent_runtime/v1/MessageBody';

export interface SubmitWakeHintRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'source'?: (string);
  'reason'?: (string);
  /**
   * Absent: a liveness-only hint.
   */
  'body'?: (_agent_runtime_v1_MessageBody | null);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
}

export interface SubmitWakeHintRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'source': (string);
  'reason': (string);
  /**
   * Absent: a liveness-only hint.
   */
  'body': (_agent_runtime_v1_MessageBody__Output | null);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
}
