// Original file: proto/agent_runtime.proto

import type { Decision as _agent_runtime_v1_Decision, Decision__Output as _agent_runtime_v1_Decision__Output } from '../../agent_runtime/v1/Decision';
import type { ActivationTurn as _agent_runtime_v1_ActivationTurn, ActivationTurn__Output as _agent_runtime_v1_ActivationTurn__Output } from '../../agent_runtime/v1/ActivationTurn';
import type { QueuedMessage as _agent_runtime_v1_QueuedMessage, QueuedMessage__Output as _agent_runtime_v1_QueuedMessage__Output } from '../../agent_runtime/v1/QueuedMessage';
import type { ContextProjection as _agent_runtime_v1_ContextProjection, ContextProjection__Output as _agent_runtime_v1_ContextProjection__Output } from '../../agent_runtime/v1/ContextProjection';

/**
 * turn, message and context are present only when the activation opened a turn.
 */
export interface ActivateReply {
  'decision'?: (_agent_runtime_v1_Decision | null);
  'turn'?: (_agent_runtime_v1_ActivationTurn | null);
  'message'?: (_agent_runtime_v1_QueuedMessage | null);
  'context'?: (_agent_runtime_v1_ContextProjection | null);
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

/**
 * turn, message and context are present only when the activation opened a turn.
 */
export interface ActivateReply__Output {
  'decision': (_agent_runtime_v1_Decision__Output | null);
  'turn': (_agent_runtime_v1_ActivationTurn__Output | null);
  'message': (_agent_runtime_v1_QueuedMessage__Output | null);
  'context': (_agent_runtime_v1_ContextProjection__Output | null);
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
