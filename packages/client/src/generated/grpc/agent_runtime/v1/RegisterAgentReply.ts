// Original file: proto/agent_runtime.proto

import type { AgentSummary as _agent_runtime_v1_AgentSummary, AgentSummary__Output as _agent_runtime_v1_AgentSummary__Output } from '../../agent_runtime/v1/AgentSummary';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface RegisterAgentReply {
  'agent'?: (_agent_runtime_v1_AgentSummary | null);
  'revision'?: (string);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface RegisterAgentReply__Output {
  'agent': (_agent_runtime_v1_AgentSummary__Output | null);
  'revision': (string);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
