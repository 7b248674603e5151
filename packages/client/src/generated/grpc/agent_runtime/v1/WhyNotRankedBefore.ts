// Original file: proto/agent_runtime.proto


export interface WhyNotRankedBefore {
  'rung'?: (number);
  'rule'?: (string);
  /**
   * agent | turn | message | wake_hint | work_item
   */
  'kind'?: (string);
  'id'?: (string);
  'why'?: (string);
}

export interface WhyNotRankedBefore__Output {
  'rung': (number);
  'rule': (string);
  /**
   * agent | turn | message | wake_hint | work_item
   */
  'kind': (string);
  'id': (string);
  'why': (string);
}
