// Original file: proto/agent_runtime.proto


export interface TriggerProvenance {
  'source'?: (string);
  'event_id'?: (string);
  /**
   * "api" | "callback" | "timer"
   */
  'via'?: (string);
  '_event_id'?: "event_id";
}

export interface TriggerProvenance__Output {
  'source': (string);
  'event_id'?: (string);
  /**
   * "api" | "callback" | "timer"
   */
  'via': (string);
  '_event_id'?: "event_id";
}
