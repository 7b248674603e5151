// Original file: proto/agent_runtime.proto

import type { MessageBody as _agent_runtime_v1_MessageBody, MessageBody__Output as _agent_runtime_v1_MessageBody__Output } from '../../agent_runtime/v1/MessageBody';

export interface TriggerWaitingIntentRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'intent_id'?: (string);
  'source'?: (string);
  'payload'?: (_agent_runtime_v1_MessageBody | null);
  'event_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_event_id'?: "event_id";
}

export interface TriggerWaitingIntentRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'intent_id': (string);
  'source': (string);
  'payload': (_agent_runtime_v1_MessageBody__Output | null);
  'event_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_event_id'?: "event_id";
}
