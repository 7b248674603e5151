// Original file: proto/agent_runtime.proto


export interface WhyNotEvent {
  /**
   * The stream event type; absent for what is not one (a dead letter answered).
   */
  'event'?: (string);
  'id'?: (string);
  'at'?: (string);
  'description'?: (string);
  '_event'?: "event";
  '_id'?: "id";
  '_at'?: "at";
}

export interface WhyNotEvent__Output {
  /**
   * The stream event type; absent for what is not one (a dead letter answered).
   */
  'event'?: (string);
  'id'?: (string);
  'at'?: (string);
  'description': (string);
  '_event'?: "event";
  '_id'?: "id";
  '_at'?: "at";
}
