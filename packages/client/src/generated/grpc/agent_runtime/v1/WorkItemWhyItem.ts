// Original file: proto/agent_runtime.proto


export interface WorkItemWhyItem {
  'state'?: (string);
  'objective'?: (string);
  'revision'?: (number);
  'plan_status'?: (string);
  'blocked_by'?: (string);
  'recheck_at'?: (string);
  'is_current'?: (boolean);
  'readiness'?: (string);
  'scheduling_state'?: (string);
  'candidate_class'?: (string);
  '_blocked_by'?: "blocked_by";
  '_recheck_at'?: "recheck_at";
}

export interface WorkItemWhyItem__Output {
  'state': (string);
  'objective': (string);
  'revision': (number);
  'plan_status': (string);
  'blocked_by'?: (string);
  'recheck_at'?: (string);
  'is_current': (boolean);
  'readiness': (string);
  'scheduling_state': (string);
  'candidate_class': (string);
  '_blocked_by'?: "blocked_by";
  '_recheck_at'?: "recheck_at";
}
