// Original file: proto/agent_runtime.proto


export interface ToolCall {
  'tool_call_id'?: (string);
  'name'?: (string);
}

export interface ToolCall__Output {
  'tool_call_id': (string);
  'name': (string);
}
