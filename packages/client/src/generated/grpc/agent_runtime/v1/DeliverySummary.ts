// Original file: proto/agent_runtime.proto

import type { DeliveryEvidence as _agent_runtime_v1_DeliveryEvidence, DeliveryEvidence__Output as _agent_runtime_v1_DeliveryEvidence__Output } from '../../agent_runtime/v1/DeliveryEvidence';

export interface DeliverySummary {
  'id'?: (string);
  'work_item_id'?: (string);
  'text'?: (string);
  'created_at'?: (string);
  'turn_id'?: (string);
  'round_id'?: (string);
  'evidence'?: (_agent_runtime_v1_DeliveryEvidence | null);
  '_turn_id'?: "turn_id";
  '_round_id'?: "round_id";
}

export interface DeliverySummary__Output {
  'id': (string);
  'work_item_id': (string);
  'text': (string);
  'created_at': (string);
  'turn_id'?: (string);
  'round_id'?: (string);
  'evidence': (_agent_runtime_v1_DeliveryEvidence__Output | null);
  '_turn_id'?: "turn_id";
  '_round_id'?: "round_id";
}
