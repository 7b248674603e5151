// Original file: proto/agent_runtime.proto


export interface CompletionReport {
  'text'?: (string);
  /**
   * "result_summary" | "delivery_summary"
   */
  'source'?: (string);
  'delivery_summary_id'?: (string);
  '_delivery_summary_id'?: "delivery_summary_id";
}

export interface CompletionReport__Output {
  'text': (string);
  /**
   * "result_summary" | "delivery_summary"
   */
  'source': (string);
  'delivery_summary_id'?: (string);
  '_delivery_summary_id'?: "delivery_summary_id";
}
