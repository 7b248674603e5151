import type { ClassConstructor } from 'class-transformer';
import type { CreateTimerInput, EnqueueMessageInput, TriggerInput, WaitForInput, WakeHintInput, CreateTaskInput } from '@app/application';
import type { MessageBody } from '@app/domain';
import type * as Rpc from '@app/contracts';
import { EnqueueMessageDto, parseLimit, CreateTaskDto, CreateTimerDto, CallbackDto, WaitForDto, WakeHintDto } from '@app/contracts';
import { ApiError } from '@app/core';
import { validateGrpcRequest } from '@app/platform';
import { present, requireId } from './grpc-envelope';

/*
 * Waiting-plane gRPC requests -> the body the HTTP edge would have received, validated by the
 * same DTO classes. Only shapes: every rule stays in the domain.
 */

/** The DTO's fields without expected_revision (the envelope checks that one). */
export async function checked<T extends object>(type: ClassConstructor<T>, fields: object): Promise<Omit<T, 'expected_revision'>> {
  const { expected_revision: _checkedByEnvelope, ...input } = (await validateGrpcRequest(type, present(fields))) as T & { expected_revision?: unknown };
  return input;
}

/** HTTP's query-string rules for a list request: `limit` is an integer, clamped by the query. */
export async function listQuery<T extends { limit?: string }>(type: ClassConstructor<T>, fields: { limit?: number; [field: string]: unknown }) {
  const query = await validateGrpcRequest(type, present({ ...fields, limit: fields.limit === undefined ? undefined : String(fields.limit) }));
  return { ...query, limit: parseLimit(query.limit) };
}

/** `{text}` is a text body; `{json}` must hold a JSON object (HTTP's object body). */
export function fromMessageBody(field: string, body: Rpc.MessageBodyMessage | undefined): MessageBody | undefined {
  if (body === undefined || body === null || body.content === undefined) return undefined;
  if (body.content === 'text') return body.text ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.json ?? '');
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('validation_failed', `${field}.json must be the text of a JSON object`, { field, errors: [{ field, constraint: 'isMessageBody', message: `${field}.json must be a JSON object` }] });
  }
  return parsed as MessageBody;
}

export async function waitForInput(request: Rpc.WaitForRequest): Promise<{ workItemId: string | null; input: WaitForInput }> {
  const workItemId = request.work_item_id === undefined ? null : requireId('work_item_id', request.work_item_id);
  const { wake, reason, resource, source, condition, fire_at, delivery_mode } = request;
  return { workItemId, input: await checked(WaitForDto, { wake, reason, resource, source, condition, fire_at, delivery_mode }) };
}

export function triggerInput(request: Rpc.TriggerWaitingIntentRequest | Rpc.CallbackRequest): Promise<TriggerInput> {
  const { source, event_id } = request;
  return checked(CallbackDto, { source, event_id, payload: fromMessageBody('payload', request.payload) });
}

export function wakeHintInput(request: Rpc.SubmitWakeHintRequest): Promise<WakeHintInput> {
  return checked(WakeHintDto, { source: request.source, reason: request.reason, body: fromMessageBody('body', request.body) });
}

/** int64 fields arrive as decimal strings; the DTO checks integers, the domain their range. */
const int64 = (value: string | undefined) => (value === undefined ? undefined : Number(value));

export function createTimerInput(request: Rpc.CreateTimerRequest): Promise<CreateTimerInput> {
  const { fire_at, work_item_id, resume_text } = request;
  return checked(CreateTimerDto, { fire_at, work_item_id, resume_text, duration_ms: int64(request.duration_ms), interval_ms: int64(request.interval_ms) });
}

export function createTaskInput(request: Rpc.CreateTaskRequest): Promise<CreateTaskInput> {
  const { task_id, kind, wait_policy, work_item_id, summary } = request;
  return checked(CreateTaskDto, { task_id, kind, wait_policy, work_item_id, summary });
}

export function enqueueMessageInput(request: Rpc.EnqueueMessageRequest): Promise<EnqueueMessageInput> {
  const { kind, priority, origin, work_item_id, task_id } = request;
  const body = fromMessageBody('body', request.body);
  return checked(EnqueueMessageDto, { kind, body, priority, origin, work_item_id, task_id, correlation_id: request.message_correlation_id });
}
