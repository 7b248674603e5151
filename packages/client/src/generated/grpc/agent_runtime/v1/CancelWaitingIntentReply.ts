// Original file: proto/agent_runtime.proto

import type { WaitingIntent as _agent_runtime_v1_WaitingIntent, WaitingIntent__Output as _agent_runtime_v1_WaitingIntent__Output } from '../../agent_runtime/v1/WaitingIntent';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface CancelWaitingIntentReply {
  'waiting_intent'?: (_agent_runtime_v1_WaitingIntent | null);
  'cancelled'?: (boolean);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface CancelWaitingIntentReply__Output {
  'waiting_intent': (_agent_runtime_v1_WaitingIntent__Output | null);
  'cancelled': (boolean);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
