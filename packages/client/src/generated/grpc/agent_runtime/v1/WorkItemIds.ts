// Original file: proto/agent_runtime.proto


export interface WorkItemIds {
  'ids'?: (string)[];
}

export interface WorkItemIds__Output {
  'ids': (string)[];
}
