// Original file: proto/agent_runtime.proto

import type { ToolCall as _agent_runtime_v1_ToolCall, ToolCall__Output as _agent_runtime_v1_ToolCall__Output } from '../../agent_runtime/v1/ToolCall';
import type { RoundCompletion as _agent_runtime_v1_RoundCompletion, RoundCompletion__Output as _agent_runtime_v1_RoundCompletion__Output } from '../../agent_runtime/v1/RoundCompletion';
import type { Promotion as _agent_runtime_v1_Promotion, Promotion__Output as _agent_runtime_v1_Promotion__Output } from '../../agent_runtime/v1/Promotion';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface Round {
  'round_id'?: (string);
  'turn_id'?: (string);
  /**
   * The focus when the round was recorded.
   */
  'work_item_id'?: (string);
  'text'?: (string);
  'tool_calls'?: (_agent_runtime_v1_ToolCall)[];
  /**
   * "open" | "closed"
   */
  'status'?: (string);
  'completions'?: (_agent_runtime_v1_RoundCompletion)[];
  'promotion'?: (_agent_runtime_v1_Promotion | null);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'recorded_at'?: (string);
  'closed_at'?: (string);
  '_work_item_id'?: "work_item_id";
  '_closed_at'?: "closed_at";
}

export interface Round__Output {
  'round_id': (string);
  'turn_id': (string);
  /**
   * The focus when the round was recorded.
   */
  'work_item_id'?: (string);
  'text': (string);
  'tool_calls': (_agent_runtime_v1_ToolCall__Output)[];
  /**
   * "open" | "closed"
   */
  'status': (string);
  'completions': (_agent_runtime_v1_RoundCompletion__Output)[];
  'promotion': (_agent_runtime_v1_Promotion__Output | null);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'recorded_at': (string);
  'closed_at'?: (string);
  '_work_item_id'?: "work_item_id";
  '_closed_at'?: "closed_at";
}
