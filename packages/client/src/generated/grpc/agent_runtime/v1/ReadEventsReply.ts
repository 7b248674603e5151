// Original file: proto/agent_runtime.proto

import type { AgentEvent as _agent_runtime_v1_AgentEvent, AgentEvent__Output as _agent_runtime_v1_AgentEvent__Output } from '../../agent_runtime/v1/AgentEvent';

export interface ReadEventsReply {
  /**
   * Ascending by revision.
   */
  'items'?: (_agent_runtime_v1_AgentEvent)[];
  /**
   * The last revision returned, or `after` when nothing was; absent when neither (HTTP null).
   */
  'next_after'?: (string);
  '_next_after'?: "next_after";
}

export interface ReadEventsReply__Output {
  /**
   * Ascending by revision.
   */
  'items': (_agent_runtime_v1_AgentEvent__Output)[];
  /**
   * The last revision returned, or `after` when nothing was; absent when neither (HTTP null).
   */
  'next_after'?: (string);
  '_next_after'?: "next_after";
}
