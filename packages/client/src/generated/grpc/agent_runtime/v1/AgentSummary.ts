// Original file: proto/agent_runtime.proto

import type { WorkItemCounts as _agent_runtime_v1_WorkItemCounts, WorkItemCounts__Output as _agent_runtime_v1_WorkItemCounts__Output } from '../../agent_runtime/v1/WorkItemCounts';

export interface AgentSummary {
  'agent_id'?: (string);
  /**
   * "booting" | "awake_idle" | "awake_running" | "asleep" | "paused" | "stopped"
   */
  'posture'?: (string);
  'current_work_item_id'?: (string);
  'registered_at'?: (string);
  'work_item_counts'?: (_agent_runtime_v1_WorkItemCounts | null);
  /**
   * Agent stream revision the read model reflects: set by GetAgent; absent inside
   * RegisterAgentReply, which carries the revision at its top level (as HTTP does).
   */
  'revision'?: (string);
  '_current_work_item_id'?: "current_work_item_id";
  '_registered_at'?: "registered_at";
  '_revision'?: "revision";
}

export interface AgentSummary__Output {
  'agent_id': (string);
  /**
   * "booting" | "awake_idle" | "awake_running" | "asleep" | "paused" | "stopped"
   */
  'posture': (string);
  'current_work_item_id'?: (string);
  'registered_at'?: (string);
  'work_item_counts': (_agent_runtime_v1_WorkItemCounts__Output | null);
  /**
   * Agent stream revision the read model reflects: set by GetAgent; absent inside
   * RegisterAgentReply, which carries the revision at its top level (as HTTP does).
   */
  'revision'?: (string);
  '_current_work_item_id'?: "current_work_item_id";
  '_registered_at'?: "registered_at";
  '_revision'?: "revision";
}
