// Original file: libs/contracts/proto/agent_runtime.proto


export interface WhyNotBlocker {
  /**
   * agent_stopped | agent_paused | agent_parked | open_turn | needs_input | wait | blocked_by | tick_emitted
   */
  'kind'?: (string);
  'id'?: (string);
  'until'?: (string);
  'detail'?: (string);
  '_id'?: "id";
  '_until'?: "until";
}

export interface WhyNotBlocker__Output {
  /**
   * agent_stopped | agent_paused | agent_parked | open_turn | needs_input | wait | blocked_by | tick_emitted
   */
  'kind': (string);
  'id'?: (string);
  'until'?: (string);
  'detail': (string);
  '_id'?: "id";
  '_until'?: "until";
}
