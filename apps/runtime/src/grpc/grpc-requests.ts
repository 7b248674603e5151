import type { CreateWorkItemInput, UpdateWorkItemInput } from '@app/application';
import type { WorkItemListFilter } from '@app/domain';
import {
  type CompleteWorkItemRequest, type CreateWorkItemRequest, type ListWorkItemsRequest, type PickWorkItemRequest, type TodoItemMessage,
  type UpdateWorkItemRequest, CompleteWorkItemDto, CreateWorkItemDto, ListWorkItemsQueryDto, PickWorkItemDto, UpdateWorkItemDto,
} from '@app/contracts';
import { ApiError } from '@app/core';
import { validateGrpcRequest } from '@app/platform';
import { present } from './grpc-envelope';

/*
 * gRPC request -> the body the HTTP edge would have received, validated by the same DTO
 * classes (validateGrpcRequest). Only shapes: every rule stays in the domain.
 */

/** proto3 cannot tell an empty repeated field from an absent one: empty reads as absent. */
const listOrAbsent = (list: TodoItemMessage[] | undefined) => (list && list.length > 0 ? list : undefined);

export async function createWorkItemInput(request: CreateWorkItemRequest): Promise<CreateWorkItemInput> {
  const body = present({
    work_item_id: request.work_item_id,
    objective: request.objective,
    plan_status: request.plan_status,
    todo_list: listOrAbsent(request.todo_list),
    plan: request.plan,
  });
  const { expected_revision: _checkedByEnvelope, ...input } = await validateGrpcRequest(CreateWorkItemDto, body);
  return input;
}

function refuseValueWithClear(field: string, hasValue: boolean, clear: boolean): void {
  if (hasValue && clear) {
    throw new ApiError('validation_failed', `send either ${field} or clear_${field}, not both`, { field, errors: [{ field, constraint: 'valueOrClear', message: `${field} and clear_${field} are exclusive` }] });
  }
}

/**
 * PATCH semantics (see UpdateWorkItemRequest in the .proto): an optional field present
 * changes it, `clear_<field>` is HTTP's `null` (or `[]` for the todo list), and a value
 * with its clear flag is refused.
 */
export async function updateWorkItemInput(request: UpdateWorkItemRequest): Promise<UpdateWorkItemInput> {
  const todos = listOrAbsent(request.todo_list);
  refuseValueWithClear('todo_list', todos !== undefined, request.clear_todo_list);
  refuseValueWithClear('blocked_by', request.blocked_by !== undefined, request.clear_blocked_by);
  refuseValueWithClear('recheck_at', request.recheck_at !== undefined, request.clear_recheck_at);
  const body = present({
    objective: request.objective,
    plan_status: request.plan_status,
    todo_list: request.clear_todo_list ? [] : todos,
    blocked_by: request.clear_blocked_by ? null : request.blocked_by,
    recheck_at: request.clear_recheck_at ? null : request.recheck_at,
  });
  const { expected_revision: _checkedByEnvelope, ...input } = await validateGrpcRequest(UpdateWorkItemDto, body);
  return input;
}

export async function pickReason(request: PickWorkItemRequest): Promise<string | undefined> {
  return (await validateGrpcRequest(PickWorkItemDto, present({ reason: request.reason }))).reason;
}

export async function completeRoundId(request: CompleteWorkItemRequest): Promise<string | undefined> {
  return (await validateGrpcRequest(CompleteWorkItemDto, present({ round_id: request.round_id }))).round_id;
}

/** The HTTP query string's rules: filter from the list, limit an integer (clamped by the query). */
export async function listQueryOf(request: ListWorkItemsRequest): Promise<{ filter: WorkItemListFilter; limit?: number }> {
  const limit = request.limit === undefined ? undefined : String(request.limit);
  const query = await validateGrpcRequest(ListWorkItemsQueryDto, present({ filter: request.filter, limit }));
  return { filter: query.filter ?? 'all', limit: query.limit === undefined ? undefined : Number(query.limit) };
}
