// Original file: proto/agent_runtime.proto


/**
 * Descriptor of the plan file (the body itself: GetPlan / ReplacePlan).
 */
export interface PlanArtifact {
  /**
   * Absolute path under AGENT_HOME.
   */
  'path'?: (string);
  /**
   * Relative to the agent's home, e.g. "work-items/w-1/plan.md".
   */
  'relative_path'?: (string);
  /**
   * "sha256:<hex>" of the file's bytes.
   */
  'hash'?: (string);
  'byte_size'?: (number);
  'updated_at'?: (string);
  'preview'?: (string);
  'preview_complete'?: (boolean);
}

/**
 * Descriptor of the plan file (the body itself: GetPlan / ReplacePlan).
 */
export interface PlanArtifact__Output {
  /**
   * Absolute path under AGENT_HOME.
   */
  'path': (string);
  /**
   * Relative to the agent's home, e.g. "work-items/w-1/plan.md".
   */
  'relative_path': (string);
  /**
   * "sha256:<hex>" of the file's bytes.
   */
  'hash': (string);
  'byte_size': (number);
  'updated_at': (string);
  'preview': (string);
  'preview_complete': (boolean);
}
