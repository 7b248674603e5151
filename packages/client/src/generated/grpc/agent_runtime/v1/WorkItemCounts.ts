// Original file: proto/agent_runtime.proto


/**
 * Work item counts per ListWorkItems filter.
 */
export interface WorkItemCounts {
  'all'?: (number);
  'open'?: (number);
  'completed'?: (number);
  'current'?: (number);
  'queued'?: (number);
  'blocked'?: (number);
  'waiting_for_operator'?: (number);
  'runnable'?: (number);
  'triggered'?: (number);
}

/**
 * Work item counts per ListWorkItems filter.
 */
export interface WorkItemCounts__Output {
  'all': (number);
  'open': (number);
  'completed': (number);
  'current': (number);
  'queued': (number);
  'blocked': (number);
  'waiting_for_operator': (number);
  'runnable': (number);
  'triggered': (number);
}
