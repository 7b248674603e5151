import type { AgentSummaryMessage, GrpcCommandFields, WaitingIntentMessage, WarningMessage, WorkItemViewMessage } from './agent-runtime.messages';

/**
 * TypeScript shapes of agent_runtime.proto's waiting-plane, task, timer, message and control
 * messages (same loader options as agent-runtime.messages.ts: snake_case, int64 as strings,
 * `optional` fields absent unless sent, a oneof's case named by its virtual field).
 * NOTE: keep in step with libs/contracts/proto/agent_runtime.proto.
 */

/** Text, or a JSON object as its JSON text; `content` names the case that is set. */
export interface MessageBodyMessage {
  text?: string;
  json?: string;
  content?: 'text' | 'json';
}

export interface QueuedMessageMessage {
  id: string;
  kind: string;
  priority: string;
  status: string;
  work_item_id?: string;
  authority: string;
  origin: string;
  body?: MessageBodyMessage;
  task_id?: string;
  correlation_id?: string;
  causation_id?: string;
  liveness_only: boolean;
  seq: number;
  created_at: string;
  updated_at: string;
}

export interface TaskMessage {
  id: string;
  kind: string;
  status: string;
  wait_policy: string;
  work_item_id?: string;
  summary?: string;
  detail?: string;
  terminal: boolean;
  created_at: string;
  updated_at: string;
}

export interface TimerMessage {
  id: string;
  fire_at: string;
  status: string;
  work_item_id?: string;
  /** int64: a decimal string on the wire. */
  interval_ms?: string | number;
  resume_text?: string;
  intent_id?: string;
  fire_count: number;
  last_fired_at?: string;
  created_at: string;
  updated_at: string;
  due?: boolean;
}

interface CommandReplyFields {
  warnings: WarningMessage[];
  revision: string;
}

interface ListRequest {
  agent_id: string;
  limit?: number;
}

// ---- Requests

export interface WaitForRequest extends GrpcCommandFields {
  work_item_id?: string;
  wake: string;
  reason: string;
  resource?: string;
  source?: string;
  condition?: string;
  fire_at?: string;
  delivery_mode?: string;
}
export interface ListWaitingIntentsRequest extends ListRequest { status?: string; work_item_id?: string }
export interface CancelWaitingIntentRequest extends GrpcCommandFields { intent_id: string; note?: string }
export interface TriggerWaitingIntentRequest extends GrpcCommandFields { intent_id: string; source: string; payload?: MessageBodyMessage; event_id?: string }
export interface CallbackRequest { callback_token: string; command_id?: string; source: string; payload?: MessageBodyMessage; event_id?: string }
export interface SubmitWakeHintRequest extends GrpcCommandFields { source: string; reason: string; body?: MessageBodyMessage }
export interface CreateTimerRequest extends GrpcCommandFields {
  fire_at?: string;
  duration_ms?: string;
  interval_ms?: string;
  work_item_id?: string;
  resume_text?: string;
}
export interface ListTimersRequest extends ListRequest { status?: string }
export interface CancelTimerRequest extends GrpcCommandFields { timer_id: string }
export interface CreateTaskRequest extends GrpcCommandFields { task_id?: string; kind: string; wait_policy: string; work_item_id?: string; summary?: string }
export interface UpdateTaskStatusRequest extends GrpcCommandFields { task_id: string; status: string; detail?: string }
export interface ListTasksRequest extends ListRequest { filter?: string; work_item_id?: string }
export interface EnqueueMessageRequest extends GrpcCommandFields {
  kind: string;
  body?: MessageBodyMessage;
  priority?: string;
  origin?: string;
  work_item_id?: string;
  task_id?: string;
  /** HTTP's body `correlation_id` (field 4 is the request's X-Correlation-Id). */
  message_correlation_id?: string;
}
export interface ListMessagesRequest extends ListRequest { status?: string }
export interface DropMessageRequest extends GrpcCommandFields { message_id: string }
export interface ControlRequest extends GrpcCommandFields { action: string }

// ---- Replies

export interface WaitForReply extends CommandReplyFields { waiting_intent: WaitingIntentMessage; work_item?: WorkItemViewMessage; callback_token?: string }
export interface ListWaitingIntentsReply { items: WaitingIntentMessage[]; total: number }
export interface CancelWaitingIntentReply extends CommandReplyFields { waiting_intent: WaitingIntentMessage; cancelled: boolean }
export interface TriggerWaitingIntentReply extends CommandReplyFields {
  waiting_intent: WaitingIntentMessage;
  status: string;
  disposition?: string;
  message?: QueuedMessageMessage;
}
export interface CallbackReply extends CommandReplyFields { status: string; waiting_intent_id: string; trigger_count: number; last_triggered_at?: string }
export interface SubmitWakeHintReply extends CommandReplyFields { disposition: string; message?: QueuedMessageMessage }
export interface TimerReply extends CommandReplyFields { timer: TimerMessage }
export interface ListTimersReply { items: TimerMessage[]; total: number }
export interface CancelTimerReply extends CommandReplyFields { timer: TimerMessage; cancelled: boolean }
export interface TaskReply extends CommandReplyFields { task: TaskMessage }
export interface ListTasksReply { items: TaskMessage[]; total: number }
export interface EnqueueMessageReply extends CommandReplyFields { message: QueuedMessageMessage }
export interface ListMessagesReply { items: QueuedMessageMessage[]; total: number }
export interface DropMessageReply extends CommandReplyFields { message: QueuedMessageMessage; dropped: boolean }
export interface ControlReply extends CommandReplyFields {
  agent: AgentSummaryMessage;
  previous_posture: string;
  posture: string;
  changed: boolean;
}
