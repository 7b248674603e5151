// Original file: proto/agent_runtime.proto

import type { Task as _agent_runtime_v1_Task, Task__Output as _agent_runtime_v1_Task__Output } from '../../agent_runtime/v1/Task';

export interface ListTasksReply {
  'items'?: (_agent_runtime_v1_Task)[];
  'total'?: (number);
}

export interface ListTasksReply__Output {
  'items': (_agent_runtime_v1_Task__Output)[];
  'total': (number);
}
