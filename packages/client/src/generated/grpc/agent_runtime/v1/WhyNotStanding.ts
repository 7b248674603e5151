// Original file: proto/agent_runtime.proto


/**
 * The rung that would take the item.
 */
export interface WhyNotStanding {
  'rung'?: (number);
  'rule'?: (string);
  'rank'?: (number);
  'of'?: (number);
  'tick_key'?: (string);
  'tick_emitted'?: (boolean);
  'recheck_due_at'?: (string);
  'recheck_due'?: (boolean);
  '_rank'?: "rank";
  '_of'?: "of";
  '_tick_key'?: "tick_key";
  '_recheck_due_at'?: "recheck_due_at";
}

/**
 * The rung that would take the item.
 */
export interface WhyNotStanding__Output {
  'rung': (number);
  'rule': (string);
  'rank'?: (number);
  'of'?: (number);
  'tick_key'?: (string);
  'tick_emitted': (boolean);
  'recheck_due_at'?: (string);
  'recheck_due': (boolean);
  '_rank'?: "rank";
  '_of'?: "of";
  '_tick_key'?: "tick_key";
  '_recheck_due_at'?: "recheck_due_at";
}
