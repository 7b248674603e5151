// Original file: proto/agent_runtime.proto

import type { Timer as _agent_runtime_v1_Timer, Timer__Output as _agent_runtime_v1_Timer__Output } from '../../agent_runtime/v1/Timer';

export interface ListTimersReply {
  'items'?: (_agent_runtime_v1_Timer)[];
  'total'?: (number);
}

export interface ListTimersReply__Output {
  'items': (_agent_runtime_v1_Timer__Output)[];
  'total': (number);
}
