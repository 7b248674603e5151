import type { ClassConstructor } from 'class-transformer';
import type { EnqueueMessageInput } from '@app/application';
import type { CreateTaskInput } from '@app/application';
import type { CreateTimerInput } from '@app/application';
import type { TriggerInput, WaitForInput, WakeHintInput } from '@app/application';
import type { CreateWorkItemInput, UpdateWorkItemInput } from '@app/application';
import type { MessageBody } from '@app/domain';
import type { MessageBodyMessage, RpcRequest, TodoItemMessage } from '@app/contracts';
import { EnqueueMessageDto } from '@app/contracts';
import { parseLimit } from '@app/contracts';
import { CreateTaskDto } from '@app/contracts';
import { CreateTimerDto } from '@app/contracts';
import { CallbackDto, WaitForDto, WakeHintDto } from '@app/contracts';
import { CreateWorkItemDto, UpdateWorkItemDto } from '@app/contracts';
import { ApiError } from '@app/core';
import { validateGrpcRequest } from '@app/platform';
import { present, requireId } from './grpc-envelope';

/*
 * gRPC request -> the body (or query string) the HTTP edge would have received, validated by
 * the same DTO classes. Only where the shapes differ: every rule stays in the DTOs and the domain.
 */

/** The DTO's fields without expected_revision (the command envelope checks that one). */
export async function checked<T extends object>(
  type: ClassConstructor<T>,
  fields: object,
): Promise<Omit<T, 'expected_revision'>> {
  const { expected_revision: _checkedByEnvelope, ...input } = (await validateGrpcRequest(
    type,
    present(fields),
  )) as T & { expected_revision?: unknown };
  return input;
}

/** HTTP's query-string rules for a list request: `limit` is an integer, clamped by the query. */
export async function listQuery<T extends { limit?: string }>(
  type: ClassConstructor<T>,
  fields: { limit?: number; [field: string]: unknown },
) {
  const query = await validateGrpcRequest(
    type,
    present({ ...fields, limit: fields.limit === undefined ? undefined : String(fields.limit) }),
  );
  return { ...query, limit: parseLimit(query.limit) };
}

/** The oneof `content`: `{text}` is a text body; `{json}` must hold a JSON object (HTTP's object body). */
export function fromMessageBody(field: string, body: MessageBodyMessage | null | undefined): MessageBody | undefined {
  if (body === undefined || body === null || body.content === undefined) return undefined;
  if (body.content === 'text') return body.text ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.json ?? '');
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('validation_failed', `${field}.json must be the text of a JSON object`, {
      field,
      errors: [{ field, constraint: 'isMessageBody', message: `${field}.json must be a JSON object` }],
    });
  }
  return parsed as MessageBody;
}

/** proto3 cannot tell an empty repeated field from an absent one: empty reads as absent. */
const listOrAbsent = (list: TodoItemMessage[]) =>
  list.length > 0 ? list.map(({ text, state }) => ({ text, state })) : undefined;

export function createWorkItemInput(request: RpcRequest<'CreateWorkItem'>): Promise<CreateWorkItemInput> {
  const { work_item_id, objective, plan_status, plan } = request;
  return checked(CreateWorkItemDto, {
    work_item_id,
    objective,
    plan_status,
    todo_list: listOrAbsent(request.todo_list),
    plan,
  });
}

function refuseValueWithClear(field: string, hasValue: boolean, clear: boolean): void {
  if (hasValue && clear) {
    throw new ApiError('validation_failed', `send either ${field} or clear_${field}, not both`, {
      field,
      errors: [{ field, constraint: 'valueOrClear', message: `${field} and clear_${field} are exclusive` }],
    });
  }
}

/**
 * PATCH semantics (see UpdateWorkItemRequest in the .proto): an optional field present
 * changes it, `clear_<field>` is HTTP's `null` (or `[]` for the todo list), and a value
 * with its clear flag is refused.
 */
export function updateWorkItemInput(request: RpcRequest<'UpdateWorkItem'>): Promise<UpdateWorkItemInput> {
  const todos = listOrAbsent(request.todo_list);
  refuseValueWithClear('todo_list', todos !== undefined, request.clear_todo_list);
  refuseValueWithClear('blocked_by', request.blocked_by !== undefined, request.clear_blocked_by);
  refuseValueWithClear('recheck_at', request.recheck_at !== undefined, request.clear_recheck_at);
  return checked(UpdateWorkItemDto, {
    objective: request.objective,
    plan_status: request.plan_status,
    todo_list: request.clear_todo_list ? [] : todos,
    blocked_by: request.clear_blocked_by ? null : request.blocked_by,
    recheck_at: request.clear_recheck_at ? null : request.recheck_at,
  });
}

export async function waitForInput(
  request: RpcRequest<'WaitFor'>,
): Promise<{ workItemId: string | null; input: WaitForInput }> {
  const workItemId = request.work_item_id === undefined ? null : requireId('work_item_id', request.work_item_id);
  const { wake, reason, resource, source, condition, fire_at, delivery_mode } = request;
  return {
    workItemId,
    input: await checked(WaitForDto, { wake, reason, resource, source, condition, fire_at, delivery_mode }),
  };
}

export function triggerInput(
  request: RpcRequest<'TriggerWaitingIntent'> | RpcRequest<'Callback'>,
): Promise<TriggerInput> {
  const { source, event_id } = request;
  return checked(CallbackDto, { source, event_id, payload: fromMessageBody('payload', request.payload) });
}

export function wakeHintInput(request: RpcRequest<'SubmitWakeHint'>): Promise<WakeHintInput> {
  return checked(WakeHintDto, {
    source: request.source,
    reason: request.reason,
    body: fromMessageBody('body', request.body),
  });
}

/** int64 fields arrive as decimal strings; the DTO checks integers, the domain their range. */
const int64 = (value: string | undefined) => (value === undefined ? undefined : Number(value));

export function createTimerInput(request: RpcRequest<'CreateTimer'>): Promise<CreateTimerInput> {
  const { fire_at, work_item_id, resume_text } = request;
  return checked(CreateTimerDto, {
    fire_at,
    work_item_id,
    resume_text,
    duration_ms: int64(request.duration_ms),
    interval_ms: int64(request.interval_ms),
  });
}

export function createTaskInput(request: RpcRequest<'CreateTask'>): Promise<CreateTaskInput> {
  const { task_id, kind, wait_policy, work_item_id, summary, expected_duration_ms } = request;
  return checked(CreateTaskDto, { task_id, kind, wait_policy, work_item_id, summary, expected_duration_ms });
}

/** HTTP's body `correlation_id` is `message_correlation_id` here (field 4 is the request's X-Correlation-Id). */
export function enqueueMessageInput(request: RpcRequest<'EnqueueMessage'>): Promise<EnqueueMessageInput> {
  const { kind, priority, origin, work_item_id, task_id } = request;
  const body = fromMessageBody('body', request.body);
  return checked(EnqueueMessageDto, {
    kind,
    body,
    priority,
    origin,
    work_item_id,
    task_id,
    correlation_id: request.message_correlation_id,
  });
}
