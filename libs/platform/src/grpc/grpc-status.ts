import { Metadata, status as GrpcStatus, type ServerErrorResponse } from '@grpc/grpc-js';
import type { ClassifiedError } from '../errors/classify-error';
import type { ErrorCode } from '@app/core';

const GRPC_STATUS_BY_CODE: Record<ErrorCode, GrpcStatus> = {
  validation_failed: GrpcStatus.INVALID_ARGUMENT,
  unauthorized: GrpcStatus.UNAUTHENTICATED,
  forbidden: GrpcStatus.PERMISSION_DENIED,
  not_found: GrpcStatus.NOT_FOUND,
  request_timeout: GrpcStatus.DEADLINE_EXCEEDED,
  conflict: GrpcStatus.ABORTED,
  agent_stopped: GrpcStatus.FAILED_PRECONDITION,
  payload_too_large: GrpcStatus.RESOURCE_EXHAUSTED,
  unsupported_media_type: GrpcStatus.INVALID_ARGUMENT,
  invariant_violated: GrpcStatus.FAILED_PRECONDITION,
  rate_limited: GrpcStatus.RESOURCE_EXHAUSTED,
  headers_too_large: GrpcStatus.RESOURCE_EXHAUSTED,
  internal: GrpcStatus.INTERNAL,
  unavailable: GrpcStatus.UNAVAILABLE,
  idempotency_key_reused: GrpcStatus.FAILED_PRECONDITION,
  wake_mismatch: GrpcStatus.FAILED_PRECONDITION,
  contention: GrpcStatus.UNAVAILABLE,
  read_model_lagging: GrpcStatus.UNAVAILABLE,
  work_item_required: GrpcStatus.INVALID_ARGUMENT,
  plan_missing: GrpcStatus.FAILED_PRECONDITION,
};

/**
 * The wire code as a gRPC status. A conflict is ABORTED (stale expected_revision,
 * concurrent writers: retry after re-reading) unless its details say
 * `reason: "already_exists"` (e.g. creating an existing agent): ALREADY_EXISTS.
 */
export function grpcStatusFor(error: Pick<ClassifiedError, 'code' | 'details'>): GrpcStatus {
  if (error.code === 'conflict' && error.details.reason === 'already_exists') return GrpcStatus.ALREADY_EXISTS;
  return GRPC_STATUS_BY_CODE[error.code];
}

/** The refusals that say when to come back (`details.retry_after_seconds`): a `retry-after` trailer / header. */
export const RETRY_AFTER_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'rate_limited',
  'contention',
  'read_model_lagging',
]);

/** Trailers carry the same envelope as HTTP: `error-code` and `error-details` (JSON). */
export function toServiceError(error: ClassifiedError): ServerErrorResponse {
  const metadata = new Metadata();
  metadata.set('error-code', error.code);
  metadata.set('error-details', JSON.stringify(error.details));
  const retryAfter = error.details.retry_after_seconds;
  if (RETRY_AFTER_CODES.has(error.code) && typeof retryAfter === 'number')
    metadata.set('retry-after', String(retryAfter));
  return Object.assign(new Error(error.message), { code: grpcStatusFor(error), details: error.message, metadata });
}
