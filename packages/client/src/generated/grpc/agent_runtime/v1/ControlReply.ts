// Original file: proto/agent_runtime.proto

import type { AgentSummary as _agent_runtime_v1_AgentSummary, AgentSummary__Output as _agent_runtime_v1_AgentSummary__Output } from '../../agent_runtime/v1/AgentSummary';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface ControlReply {
  'agent'?: (_agent_runtime_v1_AgentSummary | null);
  'previous_posture'?: (string);
  'posture'?: (string);
  'changed'?: (boolean);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface ControlReply__Output {
  'agent': (_agent_runtime_v1_AgentSummary__Output | null);
  'previous_posture': (string);
  'posture': (string);
  'changed': (boolean);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
