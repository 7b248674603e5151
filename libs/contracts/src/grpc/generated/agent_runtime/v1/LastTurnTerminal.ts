// Original file: libs/contracts/proto/agent_runtime.proto


/**
 * The newest turn's terminal, once it ended.
 */
export interface LastTurnTerminal {
  'turn_id'?: (string);
  'turn_index'?: (number);
  'terminal_kind'?: (string);
  /**
   * "requeued" | "quarantined"; absent: none.
   */
  'recovery'?: (string);
  'at'?: (string);
  '_recovery'?: "recovery";
}

/**
 * The newest turn's terminal, once it ended.
 */
export interface LastTurnTerminal__Output {
  'turn_id': (string);
  'turn_index': (number);
  'terminal_kind': (string);
  /**
   * "requeued" | "quarantined"; absent: none.
   */
  'recovery'?: (string);
  'at': (string);
  '_recovery'?: "recovery";
}
