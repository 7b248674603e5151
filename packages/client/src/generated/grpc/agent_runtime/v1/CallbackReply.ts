// Original file: proto/agent_runtime.proto

import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface CallbackReply {
  /**
   * "triggered"
   */
  'status'?: (string);
  'waiting_intent_id'?: (string);
  'trigger_count'?: (number);
  'last_triggered_at'?: (string);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_last_triggered_at'?: "last_triggered_at";
  '_position'?: "position";
}

export interface CallbackReply__Output {
  /**
   * "triggered"
   */
  'status': (string);
  'waiting_intent_id': (string);
  'trigger_count': (number);
  'last_triggered_at'?: (string);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_last_triggered_at'?: "last_triggered_at";
  '_position'?: "position";
}
