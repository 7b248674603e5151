// Original file: libs/contracts/proto/agent_runtime.proto

import type { Round as _agent_runtime_v1_Round, Round__Output as _agent_runtime_v1_Round__Output } from '../../agent_runtime/v1/Round';
import type { ClosedRound as _agent_runtime_v1_ClosedRound, ClosedRound__Output as _agent_runtime_v1_ClosedRound__Output } from '../../agent_runtime/v1/ClosedRound';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';
import type { Reminder as _agent_runtime_v1_Reminder, Reminder__Output as _agent_runtime_v1_Reminder__Output } from '../../agent_runtime/v1/Reminder';

export interface RecordRoundReply {
  'round'?: (_agent_runtime_v1_Round | null);
  'closed_round'?: (_agent_runtime_v1_ClosedRound | null);
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

export interface RecordRoundReply__Output {
  'round': (_agent_runtime_v1_Round__Output | null);
  'closed_round': (_agent_runtime_v1_ClosedRound__Output | null);
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
