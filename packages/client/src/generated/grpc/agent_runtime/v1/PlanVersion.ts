// Original file: proto/agent_runtime.proto


/**
 * A plan version the item's events recorded.
 */
export interface PlanVersion {
  'hash'?: (string);
  'updated_at'?: (string);
  'byte_size'?: (number);
}

/**
 * A plan version the item's events recorded.
 */
export interface PlanVersion__Output {
  'hash': (string);
  'updated_at': (string);
  'byte_size': (number);
}
