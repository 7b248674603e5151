import type {
  AgentSummaryView, MessageBody, MessageView, TaskView, TimerView, WaitingIntentView, Warning,
} from '@app/domain';
import type * as Rpc from '@app/contracts';
import { absentIfNull, revisionOf, toAgentSummaryMessage, toWaitingIntent, toWarningMessages, toWorkItemMessage } from './grpc-replies';

/*
 * Waiting-plane views -> agent_runtime.proto messages: the same fields and literals as the HTTP
 * JSON; null becomes an absent field; a body is `{text}` or `{json}` (a JSON object's text).
 */

export function toMessageBody(body: MessageBody | null | undefined): Rpc.MessageBodyMessage | undefined {
  if (body === null || body === undefined) return undefined;
  return typeof body === 'string' ? { text: body } : { json: JSON.stringify(body) };
}

export function toQueuedMessage(message: MessageView): Rpc.QueuedMessageMessage {
  return {
    id: message.id, kind: message.kind, priority: message.priority, status: message.status,
    work_item_id: absentIfNull(message.work_item_id), authority: message.authority, origin: message.origin,
    body: toMessageBody(message.body), task_id: absentIfNull(message.task_id), correlation_id: absentIfNull(message.correlation_id),
    causation_id: absentIfNull(message.causation_id), liveness_only: message.liveness_only, seq: message.seq,
    created_at: message.created_at, updated_at: message.updated_at,
  };
}

export function toTask(task: TaskView): Rpc.TaskMessage {
  return {
    id: task.id, kind: task.kind, status: task.status, wait_policy: task.wait_policy, work_item_id: absentIfNull(task.work_item_id),
    summary: absentIfNull(task.summary), detail: absentIfNull(task.detail), terminal: task.terminal,
    created_at: task.created_at, updated_at: task.updated_at,
  };
}

export function toTimer(timer: TimerView): Rpc.TimerMessage {
  return {
    id: timer.id, fire_at: timer.fire_at, status: timer.status, work_item_id: absentIfNull(timer.work_item_id),
    interval_ms: absentIfNull(timer.interval_ms), resume_text: absentIfNull(timer.resume_text), intent_id: absentIfNull(timer.intent_id),
    fire_count: timer.fire_count, last_fired_at: absentIfNull(timer.last_fired_at), created_at: timer.created_at,
    updated_at: timer.updated_at, due: absentIfNull(timer.due),
  };
}

type CommandReply = { warnings: Warning[]; revision: string | null };

/** Every command reply: its own fields, then `warnings` and `revision` as every RPC carries them. */
export function commandReply<T extends object>(reply: CommandReply, fields: T): T & { warnings: Rpc.WarningMessage[]; revision: string } {
  return { ...fields, warnings: toWarningMessages(reply.warnings), revision: revisionOf(reply) };
}

export function toWaitForReply(reply: CommandReply & { waiting_intent: WaitingIntentView; work_item: Parameters<typeof toWorkItemMessage>[0] | null; callback_token?: string }): Rpc.WaitForReply {
  return commandReply(reply, {
    waiting_intent: toWaitingIntent(reply.waiting_intent),
    work_item: reply.work_item === null ? undefined : toWorkItemMessage(reply.work_item),
    callback_token: reply.callback_token,
  });
}

export function toTriggerReply(
  reply: CommandReply & { waiting_intent: WaitingIntentView; status: string; disposition: string | null; message: MessageView | null },
): Rpc.TriggerWaitingIntentReply {
  return commandReply(reply, {
    waiting_intent: toWaitingIntent(reply.waiting_intent), status: reply.status, disposition: absentIfNull(reply.disposition),
    message: reply.message === null ? undefined : toQueuedMessage(reply.message),
  });
}

export function toControlReply(
  reply: CommandReply & { agent: AgentSummaryView; previous_posture: string; posture: string; changed: boolean },
): Rpc.ControlReply {
  return commandReply(reply, {
    agent: toAgentSummaryMessage(reply.agent), previous_posture: reply.previous_posture, posture: reply.posture, changed: reply.changed,
  });
}

export function toList<V, M>(list: { items: V[]; total: number }, toItem: (view: V) => M): { items: M[]; total: number } {
  return { items: list.items.map(toItem), total: list.total };
}
