// Original file: proto/agent_runtime.proto

import type { WaitingIntent as _agent_runtime_v1_WaitingIntent, WaitingIntent__Output as _agent_runtime_v1_WaitingIntent__Output } from '../../agent_runtime/v1/WaitingIntent';

export interface ListWaitingIntentsReply {
  'items'?: (_agent_runtime_v1_WaitingIntent)[];
  'total'?: (number);
}

export interface ListWaitingIntentsReply__Output {
  'items': (_agent_runtime_v1_WaitingIntent__Output)[];
  'total': (number);
}
