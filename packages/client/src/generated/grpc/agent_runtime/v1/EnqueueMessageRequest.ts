// Original file: proto/agent_runtime.proto

import type { MessageBody as _agent_runtime_v1_MessageBody, MessageBody__Output as _agent_runtime_v1_MessageBody__Output } from '../../agent_runtime/v1/MessageBody';

/**
 * HTTP's body field `correlation_id` (the message's own) is `message_correlation_id` here:
 * field 4 is the request's X-Correlation-Id, as in every command.
 */
export interface EnqueueMessageRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'kind'?: (string);
  'body'?: (_agent_runtime_v1_MessageBody | null);
  'priority'?: (string);
  'origin'?: (string);
  'work_item_id'?: (string);
  'task_id'?: (string);
  'message_correlation_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_priority'?: "priority";
  '_origin'?: "origin";
  '_work_item_id'?: "work_item_id";
  '_task_id'?: "task_id";
  '_message_correlation_id'?: "message_correlation_id";
}

/**
 * HTTP's body field `correlation_id` (the message's own) is `message_correlation_id` here:
 * field 4 is the request's X-Correlation-Id, as in every command.
 */
export interface EnqueueMessageRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'kind': (string);
  'body': (_agent_runtime_v1_MessageBody__Output | null);
  'priority'?: (string);
  'origin'?: (string);
  'work_item_id'?: (string);
  'task_id'?: (string);
  'message_correlation_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_priority'?: "priority";
  '_origin'?: "origin";
  '_work_item_id'?: "work_item_id";
  '_task_id'?: "task_id";
  '_message_correlation_id'?: "message_correlation_id";
}
