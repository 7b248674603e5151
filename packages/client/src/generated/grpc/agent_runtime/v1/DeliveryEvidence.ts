// Original file: proto/agent_runtime.proto

import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface DeliveryEvidence {
  /**
   * "report_promotion"
   */
  'source'?: (string);
  /**
   * The completion's warnings (e.g. unfinished_todos).
   */
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'tool_call_ids'?: (string)[];
}

export interface DeliveryEvidence__Output {
  /**
   * "report_promotion"
   */
  'source': (string);
  /**
   * The completion's warnings (e.g. unfinished_todos).
   */
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'tool_call_ids': (string)[];
}
