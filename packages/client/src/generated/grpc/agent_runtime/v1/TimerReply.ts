// Original file: proto/agent_runtime.proto

import type { Timer as _agent_runtime_v1_Timer, Timer__Output as _agent_runtime_v1_Timer__Output } from '../../agent_runtime/v1/Timer';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface TimerReply {
  'timer'?: (_agent_runtime_v1_Timer | null);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface TimerReply__Output {
  'timer': (_agent_runtime_v1_Timer__Output | null);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
