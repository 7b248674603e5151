// Original file: proto/agent_runtime.proto

import type { QueueHead as _agent_runtime_v1_QueueHead, QueueHead__Output as _agent_runtime_v1_QueueHead__Output } from '../../agent_runtime/v1/QueueHead';

export interface QueueState {
  'count'?: (number);
  /**
   * Queued messages per priority band ("interject", "next", "normal", "background").
   */
  'by_priority'?: ({[key: string]: number});
  'head'?: (_agent_runtime_v1_QueueHead | null);
}

export interface QueueState__Output {
  'count': (number);
  /**
   * Queued messages per priority band ("interject", "next", "normal", "background").
   */
  'by_priority': ({[key: string]: number});
  'head': (_agent_runtime_v1_QueueHead__Output | null);
}
