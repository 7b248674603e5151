import { AGENT_RUNTIME_PROTO } from './service-names';
export { AGENT_RUNTIME_PROTO };
/**
 * TypeScript shapes of agent_runtime.proto's messages as @grpc/proto-loader hands them over
 * with PROTO_LOADER_OPTIONS (snake_case, int64 as strings, defaults on). Requests: plain
 * scalars and repeated fields are always there (defaults); proto3 `optional` fields are
 * absent unless sent. Replies: an absent field stands for HTTP's null.
 * NOTE: keep in step with libs/contracts/proto/agent_runtime.proto.
 */

/** The .proto file of the runtime service, relative to PROTO_DIR. */


/** Fields every command request carries (numbers 1..4 in the .proto). */
export interface GrpcCommandFields {
  agent_id: string;
  command_id?: string;
  expected_revision?: string;
  correlation_id?: string;
}

export interface TodoItemMessage {
  text: string;
  state: string;
}

export interface WarningMessage {
  kind: string;
  message: string;
  /** The warning's extras (every key but kind and message) as one JSON object. */
  details_json?: string;
}

export interface PlanArtifactMessage {
  path: string;
  relative_path: string;
  hash: string;
  byte_size: number;
  updated_at: string;
  preview: string;
  preview_complete: boolean;
}

export interface WaitingIntentMessage {
  id: string;
  scope: string;
  work_item_id?: string;
  wake: string;
  reason: string;
  source?: string;
  resource?: string;
  condition?: string;
  fire_at?: string;
  delivery_mode: string;
  status: string;
  trigger_count: number;
  last_triggered_at?: string;
  triggered: boolean;
  created_at: string;
  updated_at: string;
  timer_id?: string;
  last_trigger?: TriggerProvenanceMessage;
  ended_at?: string;
  end_reason?: string;
  has_callback_token: boolean;
}

export interface TriggerProvenanceMessage {
  source: string;
  event_id?: string;
  via: string;
}

export interface CompletionReportMessage {
  text: string;
  source: string;
  delivery_summary_id?: string;
}

export interface WorkItemViewMessage {
  id: string;
  agent_id: string;
  objective: string;
  state: string;
  plan_status: string;
  blocked_by?: string;
  recheck_at?: string;
  revision: number;
  todo_list: TodoItemMessage[];
  current_todo?: TodoItemMessage;
  plan_artifact: PlanArtifactMessage;
  readiness: string;
  scheduling_state: string;
  candidate_class: string;
  is_current: boolean;
  has_active_waits: boolean;
  has_triggered_waits: boolean;
  waiting_intents: WaitingIntentMessage[];
  result_summary?: string;
  completion_report?: CompletionReportMessage;
  created_at: string;
  updated_at: string;
  completed_at?: string;
}

export type WorkItemCountsMessage = Record<
  'all' | 'open' | 'completed' | 'current' | 'queued' | 'blocked' | 'waiting_for_operator' | 'runnable' | 'triggered',
  number
>;

export interface AgentSummaryMessage {
  agent_id: string;
  posture: string;
  current_work_item_id?: string;
  registered_at?: string;
  work_item_counts: WorkItemCountsMessage;
  revision?: string;
}

// ---- Requests

export type RegisterAgentRequest = GrpcCommandFields;

export interface GetAgentRequest {
  agent_id: string;
}

export interface CreateWorkItemRequest extends GrpcCommandFields {
  work_item_id?: string;
  objective: string;
  plan_status?: string;
  todo_list: TodoItemMessage[];
  plan?: string;
}

export interface UpdateWorkItemRequest extends GrpcCommandFields {
  work_item_id: string;
  objective?: string;
  plan_status?: string;
  todo_list: TodoItemMessage[];
  clear_todo_list: boolean;
  blocked_by?: string;
  clear_blocked_by: boolean;
  recheck_at?: string;
  clear_recheck_at: boolean;
}

export interface PickWorkItemRequest extends GrpcCommandFields {
  work_item_id: string;
  reason?: string;
}

export interface CompleteWorkItemRequest extends GrpcCommandFields {
  work_item_id: string;
  round_id?: string;
}

export interface GetWorkItemRequest {
  agent_id: string;
  work_item_id: string;
}

export interface ListWorkItemsRequest {
  agent_id: string;
  filter?: string;
  limit?: number;
}

export type GetPlanRequest = GetWorkItemRequest;

export interface ReplacePlanRequest extends GrpcCommandFields {
  work_item_id: string;
  body: string;
}

// ---- Replies

interface CommandReplyFields {
  warnings: WarningMessage[];
  revision: string;
}

export interface RegisterAgentReply extends CommandReplyFields {
  agent: AgentSummaryMessage;
}

export interface CreateWorkItemReply extends CommandReplyFields {
  work_item: WorkItemViewMessage;
}

export interface UpdateWorkItemReply extends CommandReplyFields {
  work_item: WorkItemViewMessage;
  focus_released: boolean;
}

export type ReplacePlanReply = UpdateWorkItemReply;

export interface PickWorkItemReply extends CommandReplyFields {
  current: WorkItemViewMessage;
  previous?: WorkItemViewMessage;
  binding_note: string;
}

export interface CompleteWorkItemReply extends CommandReplyFields {
  work_item: WorkItemViewMessage;
  completed_transition: boolean;
}

export interface ListWorkItemsReply {
  items: WorkItemViewMessage[];
  total: number;
}

export interface GetPlanReply {
  body: string;
}

// The waiting plane, tasks, timers, messages and control.
export * from './waiting-plane.messages';
// Turns and the scheduler's reads.
export * from './scheduler.messages';
