// Original file: proto/agent_runtime.proto

import type { TurnTerminalRecord as _agent_runtime_v1_TurnTerminalRecord, TurnTerminalRecord__Output as _agent_runtime_v1_TurnTerminalRecord__Output } from '../../agent_runtime/v1/TurnTerminalRecord';

/**
 * A turn with everything it recorded.
 */
export interface Turn {
  'turn_id'?: (string);
  'turn_index'?: (number);
  'message_id'?: (string);
  'work_item_id'?: (string);
  'work_item_revision'?: (number);
  /**
   * "open" | "closed"
   */
  'status'?: (string);
  'started_at'?: (string);
  'lease_ttl_ms'?: (number);
  'lease_expires_at'?: (string);
  'last_heartbeat_at'?: (string);
  'round_ids'?: (string)[];
  'open_round_id'?: (string);
  'promoted_round_ids'?: (string)[];
  'terminal'?: (_agent_runtime_v1_TurnTerminalRecord | null);
  /**
   * "requeued" | "quarantined"
   */
  'recovery'?: (string);
  '_work_item_id'?: "work_item_id";
  '_work_item_revision'?: "work_item_revision";
  '_last_heartbeat_at'?: "last_heartbeat_at";
  '_open_round_id'?: "open_round_id";
  '_recovery'?: "recovery";
}

/**
 * A turn with everything it recorded.
 */
export interface Turn__Output {
  'turn_id': (string);
  'turn_index': (number);
  'message_id': (string);
  'work_item_id'?: (string);
  'work_item_revision'?: (number);
  /**
   * "open" | "closed"
   */
  'status': (string);
  'started_at': (string);
  'lease_ttl_ms': (number);
  'lease_expires_at': (string);
  'last_heartbeat_at'?: (string);
  'round_ids': (string)[];
  'open_round_id'?: (string);
  'promoted_round_ids': (string)[];
  'terminal': (_agent_runtime_v1_TurnTerminalRecord__Output | null);
  /**
   * "requeued" | "quarantined"
   */
  'recovery'?: (string);
  '_work_item_id'?: "work_item_id";
  '_work_item_revision'?: "work_item_revision";
  '_last_heartbeat_at'?: "last_heartbeat_at";
  '_open_round_id'?: "open_round_id";
  '_recovery'?: "recovery";
}
