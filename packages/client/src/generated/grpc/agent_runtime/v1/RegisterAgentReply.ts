// Original file: proto/agent_runtime.proto

import type { AgentSummary as _agent_runtime_v1_AgentSummary, AgentSummary__Output as _agent_runtime_v1_AgentSummary__Output } from '../../agent_runtime/v1/AgentSummary';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface RegisterAgentReply {
  'agent'?: (_agent_runtime_v1_AgentSummary | null);
  'revision'?: (string);
  'warnings'?: (_agent_runtime_v1_Warning)[];
}

export interface RegisterAgentReply__Output {
  'agent': (_agent_runtime_v1_AgentSummary__Output | null);
  'revision': (string);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
}
