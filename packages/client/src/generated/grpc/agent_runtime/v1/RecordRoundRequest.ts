// Original file: proto/agent_runtime.proto

import type { ToolCall as _agent_runtime_v1_ToolCall, ToolCall__Output as _agent_runtime_v1_ToolCall__Output } from '../../agent_runtime/v1/ToolCall';

export interface RecordRoundRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'turn_id'?: (string);
  'round_id'?: (string);
  'text'?: (string);
  'tool_calls'?: (_agent_runtime_v1_ToolCall)[];
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_text'?: "text";
}

export interface RecordRoundRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'turn_id': (string);
  'round_id': (string);
  'text'?: (string);
  'tool_calls': (_agent_runtime_v1_ToolCall__Output)[];
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_text'?: "text";
}
