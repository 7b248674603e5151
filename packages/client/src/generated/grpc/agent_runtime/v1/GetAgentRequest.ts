// Original file: proto/agent_runtime.proto


export interface GetAgentRequest {
  'agent_id'?: (string);
}

export interface GetAgentRequest__Output {
  'agent_id': (string);
}
