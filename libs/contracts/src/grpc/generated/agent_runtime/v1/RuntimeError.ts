// Original file: libs/contracts/proto/agent_runtime.proto


/**
 * A dead letter of this agent in a read model (source "dead_letter": projection, position,
 * revision, event_type), or the newest turn's terminal error (source "turn_terminal": the turn fields).
 */
export interface RuntimeError {
  'source'?: (string);
  'projection'?: (string);
  'position'?: (string);
  'revision'?: (string);
  'event_type'?: (string);
  'turn_id'?: (string);
  'turn_index'?: (number);
  'terminal_kind'?: (string);
  'recovery'?: (string);
  'at'?: (string);
  '_projection'?: "projection";
  '_position'?: "position";
  '_revision'?: "revision";
  '_event_type'?: "event_type";
  '_turn_id'?: "turn_id";
  '_turn_index'?: "turn_index";
  '_terminal_kind'?: "terminal_kind";
  '_recovery'?: "recovery";
  '_at'?: "at";
}

/**
 * A dead letter of this agent in a read model (source "dead_letter": projection, position,
 * revision, event_type), or the newest turn's terminal error (source "turn_terminal": the turn fields).
 */
export interface RuntimeError__Output {
  'source': (string);
  'projection'?: (string);
  'position'?: (string);
  'revision'?: (string);
  'event_type'?: (string);
  'turn_id'?: (string);
  'turn_index'?: (number);
  'terminal_kind'?: (string);
  'recovery'?: (string);
  'at'?: (string);
  '_projection'?: "projection";
  '_position'?: "position";
  '_revision'?: "revision";
  '_event_type'?: "event_type";
  '_turn_id'?: "turn_id";
  '_turn_index'?: "turn_index";
  '_terminal_kind'?: "terminal_kind";
  '_recovery'?: "recovery";
  '_at'?: "at";
}
