// Original file: proto/agent_runtime.proto


export interface GetStateRequest {
  'agent_id'?: (string);
}

export interface GetStateRequest__Output {
  'agent_id': (string);
}
