import type { CommandEnvelope } from '@app/application';
import { ExpectedRevisionDto } from '@app/contracts';
import type { CommandRequestFields } from '@app/contracts';
import { type Caller } from '@app/application';
import { ApiError } from '@app/core';
import { ID_PATTERN } from '@app/domain';
import { type GrpcCallContext, validateGrpcRequest } from '@app/platform';
import { requireCommandKey } from '../command-key';

/** The caller of a token-protected RPC (the host has authorized it already). */
export function callerOf(context: GrpcCallContext): Caller {
  if (!context.caller) throw new ApiError('unauthorized', 'a bearer token is required');
  return context.caller;
}

/**
 * An id field (agent_id, work_item_id) must match docs/api.md's id pattern: the gRPC form of
 * the HTTP edge's path id check. proto3 sends an unset string as "", which fails it too.
 */
export function requireId(field: string, value: unknown): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
    throw new ApiError('validation_failed', `${field} does not match the id pattern`, {
      field,
      pattern: ID_PATTERN.source,
    });
  }
  return value;
}

function commandKey(field: 'command_id' | 'correlation_id', value: string | undefined): string | undefined {
  // The Idempotency-Key / X-Correlation-Id header rule of the HTTP edge.
  return value === undefined ? undefined : requireCommandKey(field, value, { field });
}

/**
 * The envelope of a command request: the same checks as the HTTP edge (id pattern,
 * Idempotency-Key rule for command_id, the expected_revision rule of the DTOs).
 */
export async function commandEnvelopeOf(
  request: CommandRequestFields,
  context: GrpcCallContext,
): Promise<CommandEnvelope> {
  const agentId = requireId('agent_id', request.agent_id);
  // Absent, there is nothing to check (the DTO's field is optional): no validation pass for an empty object.
  const { expected_revision } =
    request.expected_revision === undefined
      ? {}
      : await validateGrpcRequest(ExpectedRevisionDto, { expected_revision: request.expected_revision });
  return {
    agentId,
    caller: callerOf(context),
    idempotencyKey: commandKey('command_id', request.command_id),
    correlationId: commandKey('correlation_id', request.correlation_id),
    expectedRevision: expected_revision === undefined ? undefined : BigInt(expected_revision),
  };
}

/** Only the keys whose value is not undefined: what an HTTP body that omits them would hold. */
export function present<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
