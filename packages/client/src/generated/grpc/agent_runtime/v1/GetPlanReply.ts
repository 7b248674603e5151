// Original file: proto/agent_runtime.proto


export interface GetPlanReply {
  /**
   * The file's text (markdown); empty when the file is empty or missing.
   */
  'body'?: (string);
}

export interface GetPlanReply__Output {
  /**
   * The file's text (markdown); empty when the file is empty or missing.
   */
  'body': (string);
}
