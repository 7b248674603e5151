// Original file: proto/agent_runtime.proto

import type { Turn as _agent_runtime_v1_Turn, Turn__Output as _agent_runtime_v1_Turn__Output } from '../../agent_runtime/v1/Turn';
import type { QueuedMessage as _agent_runtime_v1_QueuedMessage, QueuedMessage__Output as _agent_runtime_v1_QueuedMessage__Output } from '../../agent_runtime/v1/QueuedMessage';
import type { Brief as _agent_runtime_v1_Brief, Brief__Output as _agent_runtime_v1_Brief__Output } from '../../agent_runtime/v1/Brief';
import type { ClosedRound as _agent_runtime_v1_ClosedRound, ClosedRound__Output as _agent_runtime_v1_ClosedRound__Output } from '../../agent_runtime/v1/ClosedRound';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface TurnTerminalReply {
  'turn'?: (_agent_runtime_v1_Turn | null);
  'message'?: (_agent_runtime_v1_QueuedMessage | null);
  /**
   * Absent: no brief (aborted, interrupted, or a completed turn whose report was promoted).
   */
  'brief'?: (_agent_runtime_v1_Brief | null);
  'closed_round'?: (_agent_runtime_v1_ClosedRound | null);
  'recovery'?: (string);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_recovery'?: "recovery";
  '_position'?: "position";
}

export interface TurnTerminalReply__Output {
  'turn': (_agent_runtime_v1_Turn__Output | null);
  'message': (_agent_runtime_v1_QueuedMessage__Output | null);
  /**
   * Absent: no brief (aborted, interrupted, or a completed turn whose report was promoted).
   */
  'brief': (_agent_runtime_v1_Brief__Output | null);
  'closed_round': (_agent_runtime_v1_ClosedRound__Output | null);
  'recovery'?: (string);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_recovery'?: "recovery";
  '_position'?: "position";
}
