// Original file: proto/agent_runtime.proto

import type { Promotion as _agent_runtime_v1_Promotion, Promotion__Output as _agent_runtime_v1_Promotion__Output } from '../../agent_runtime/v1/Promotion';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

/**
 * The outcome of a round closed by a command (the next round, or the terminal).
 */
export interface ClosedRound {
  'round_id'?: (string);
  /**
   * Absent: not promoted.
   */
  'promotion'?: (_agent_runtime_v1_Promotion | null);
  'warnings'?: (_agent_runtime_v1_Warning)[];
}

/**
 * The outcome of a round closed by a command (the next round, or the terminal).
 */
export interface ClosedRound__Output {
  'round_id': (string);
  /**
   * Absent: not promoted.
   */
  'promotion': (_agent_runtime_v1_Promotion__Output | null);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
}
