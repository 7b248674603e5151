// Original file: proto/agent_runtime.proto


/**
 * How far the read models are behind the store (positions as decimal strings).
 */
export interface ProjectionLag {
  'checkpoint'?: (string);
  'head'?: (string);
  'caught_up'?: (boolean);
  '_head'?: "head";
}

/**
 * How far the read models are behind the store (positions as decimal strings).
 */
export interface ProjectionLag__Output {
  'checkpoint': (string);
  'head'?: (string);
  'caught_up': (boolean);
  '_head'?: "head";
}
