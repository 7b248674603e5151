// Original file: libs/contracts/proto/agent_runtime.proto

import type { Promotion as _agent_runtime_v1_Promotion, Promotion__Output as _agent_runtime_v1_Promotion__Output } from '../../agent_runtime/v1/Promotion';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';
import type { Reminder as _agent_runtime_v1_Reminder, Reminder__Output as _agent_runtime_v1_Reminder__Output } from '../../agent_runtime/v1/Reminder';

export interface CloseRoundReply {
  /**
   * Absent: no report was promoted (HTTP null).
   */
  'promotion'?: (_agent_runtime_v1_Promotion | null);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * What looks stale (docs/domain-contract.md §2, Reminders).
   */
  'reminders'?: (_agent_runtime_v1_Reminder)[];
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface CloseRoundReply__Output {
  /**
   * Absent: no report was promoted (HTTP null).
   */
  'promotion': (_agent_runtime_v1_Promotion__Output | null);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * What looks stale (docs/domain-contract.md §2, Reminders).
   */
  'reminders': (_agent_runtime_v1_Reminder__Output)[];
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
