import type { GrpcCommandFields, WarningMessage } from './agent-runtime.messages';
import type { QueuedMessageMessage } from './waiting-plane.messages';

/**
 * TypeScript shapes of agent_runtime.proto's turn and scheduler messages (same loader options
 * as agent-runtime.messages.ts: snake_case, int64 as strings, `optional` fields absent unless
 * sent, an absent message field for HTTP's null).
 * NOTE: keep in step with libs/contracts/proto/agent_runtime.proto.
 */

interface CommandReplyFields {
  warnings: WarningMessage[];
  revision: string;
}

interface ListRequest {
  agent_id: string;
  limit?: number;
}

export interface DecisionMessage {
  kind: string;
  reason: string;
  model_reentry: boolean;
  liveness_only: boolean;
  message_id?: string;
  work_item_id?: string;
  task_id?: string;
  idempotency_key?: string;
  evidence: string[];
  recorded_at?: string;
  revision?: string;
}

export interface ActivationTurnMessage { turn_id: string; turn_index: number; lease_expires_at: string; work_item_id?: string }
export interface ContextSectionMessage { name: string; text: string; estimated_tokens: number; content_json?: string }

export interface ContextProjectionMessage {
  budget_tokens: number;
  estimated_tokens: number;
  sections: ContextSectionMessage[];
  omitted_sections: string[];
  trimmed_trace_entries: number;
  truncated: boolean;
  over_budget: boolean;
  text: string;
}

export interface ToolCallMessage { tool_call_id: string; name: string }
export interface PromotionMessage { work_item_id: string; delivery_summary_id: string; brief_id: string }

export interface RoundCompletionMessage {
  work_item_id: string;
  focused: boolean;
  unfinished_todo_count: number;
  pending_todo_count: number;
  in_progress_todo_count: number;
  at: string;
}

export interface RoundMessage {
  round_id: string;
  turn_id: string;
  work_item_id?: string;
  text: string;
  tool_calls: ToolCallMessage[];
  status: string;
  completions: RoundCompletionMessage[];
  promotion?: PromotionMessage;
  warnings: WarningMessage[];
  recorded_at: string;
  closed_at?: string;
}

export interface ClosedRoundMessage { round_id: string; promotion?: PromotionMessage; warnings: WarningMessage[] }
export interface TurnTerminalRecordMessage { terminal_kind: string; last_assistant_message?: string; at: string }

export interface TurnMessage {
  turn_id: string;
  turn_index: number;
  message_id: string;
  work_item_id?: string;
  work_item_revision?: number;
  status: string;
  started_at: string;
  lease_ttl_ms: number;
  lease_expires_at: string;
  last_heartbeat_at?: string;
  round_ids: string[];
  open_round_id?: string;
  promoted_round_ids: string[];
  terminal?: TurnTerminalRecordMessage;
  recovery?: string;
}

export interface BriefMessage { id: string; kind: string; text: string; work_item_id?: string; created_at: string }

export interface DeliverySummaryMessage {
  id: string;
  work_item_id: string;
  text: string;
  created_at: string;
  turn_id?: string;
  round_id?: string;
  evidence: { source: string; warnings: WarningMessage[]; tool_call_ids: string[] };
}

/** GetState: the scheduler_state read model with next_decision and projection_lag. Nested parts mirror the HTTP JSON. */
export interface SchedulerStateMessage {
  agent_id: string;
  posture: string;
  version: number;
  turn_index: number;
  current_work_item?: { id: string; revision: number; readiness: string; scheduling_state: string; continue_active_key: string; continue_active_consumed: boolean };
  open_turn?: { turn_id: string; turn_index: number; message_id: string; work_item_id?: string; lease_expires_at: string; lease_expired: boolean; open_round_id?: string };
  queue: { count: number; by_priority: Record<string, number>; head?: { message_id: string; kind: string; priority: string; model_reentry: boolean; reason: string } };
  replay_message_ids: string[];
  counts: Record<string, number>;
  candidates: Record<string, { ids: string[] }>;
  rechecks_due: Array<{ work_item_id: string; recheck_at: string; idempotency_key: string; consumed: boolean }>;
  active_intents: Array<{ id: string; scope: string; work_item_id?: string; wake: string; resource?: string; trigger_count: number; last_triggered_at?: string }>;
  scheduled_timers: Array<{ id: string; fire_at: string; work_item_id?: string; intent_id?: string; due: boolean }>;
  active_tasks: Array<{ id: string; kind: string; status: string; wait_policy: string; work_item_id?: string }>;
  pending_wake_hint?: { source: string; reason: string; created_at: string; intent_id?: string; liveness_only: boolean; idempotency_key: string };
  last_decision?: DecisionMessage;
  revision: string;
  projected_at: string;
  next_due_at?: string;
  next_decision: DecisionMessage;
  projection_lag: { checkpoint: string; head?: string; caught_up: boolean };
}

// ---- Requests

export interface ActivateRequest extends Omit<GrpcCommandFields, 'expected_revision'> { lease_ttl_ms?: number; context_budget?: number }
export interface HeartbeatRequest extends GrpcCommandFields { turn_id: string; lease_ttl_ms?: number }
export interface RecordRoundRequest extends GrpcCommandFields { turn_id: string; round_id: string; text?: string; tool_calls: ToolCallMessage[] }
export interface CloseRoundRequest extends GrpcCommandFields { turn_id: string; round_id: string }
export interface TurnTerminalRequest extends GrpcCommandFields { turn_id: string; terminal_kind: string; last_assistant_message?: string }
export interface GetStateRequest { agent_id: string }
export interface GetContextRequest { agent_id: string; budget?: number }
export type ListDecisionsRequest = ListRequest;
export interface ListBriefsRequest extends ListRequest { kind?: string; work_item_id?: string }
export interface ListDeliverySummariesRequest extends ListRequest { work_item_id?: string }

// ---- Replies

export interface ActivateReply {
  decision: DecisionMessage;
  turn?: ActivationTurnMessage;
  message?: QueuedMessageMessage;
  context?: ContextProjectionMessage;
  revision: string;
}

export interface HeartbeatReply extends CommandReplyFields { turn: ActivationTurnMessage; interjections: QueuedMessageMessage[] }
export interface RecordRoundReply extends CommandReplyFields { round: RoundMessage; closed_round?: ClosedRoundMessage }
export interface CloseRoundReply extends CommandReplyFields { promotion?: PromotionMessage }

export interface TurnTerminalReply extends CommandReplyFields {
  turn: TurnMessage;
  message?: QueuedMessageMessage;
  brief?: BriefMessage;
  closed_round?: ClosedRoundMessage;
  recovery?: string;
}

export interface ListDecisionsReply { items: DecisionMessage[]; total: number }
export interface ListBriefsReply { items: BriefMessage[]; total: number }
export interface ListDeliverySummariesReply { items: DeliverySummaryMessage[]; total: number }
