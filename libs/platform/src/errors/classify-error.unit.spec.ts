import { BadRequestException, ForbiddenException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { StoreUnavailableError, WrongExpectedRevisionError, IdempotencyConflictError } from '@app/event-store';
import { grpcStatusFor, toServiceError } from '../grpc/grpc-status';
import { classifyError, toEnvelope } from './classify-error';
import { ApiError } from '@app/core';

/** The shape of libs/domain's DomainError, without importing it. */
class FakeDomainError extends Error {
  constructor(
    readonly code: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(`refused: ${code}`);
  }
}

const fastifyError = (code: string, statusCode: number, message = 'x') =>
  Object.assign(new Error(message), { code, statusCode });

describe('classifyError for errors that carry a wire code', () => {
  it.each([
    ['validation_failed', 400],
    ['unauthorized', 401],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['invariant_violated', 422],
  ])('maps a DomainError-like %s to %i with its message and details', (code, status) => {
    const result = classifyError(new FakeDomainError(code, { work_item_id: 'w-1', revision: 7n }));
    expect(result).toEqual({
      status,
      code,
      message: `refused: ${code}`,
      details: { work_item_id: 'w-1', revision: '7' },
    });
  });

  it("maps the domain's already_exists to 409 conflict, marked for gRPC's ALREADY_EXISTS", () => {
    const result = classifyError(new FakeDomainError('already_exists', { resource: 'agent', agent_id: 'a-1' }));
    expect(result).toEqual({
      status: 409,
      code: 'conflict',
      message: 'refused: already_exists',
      details: { reason: 'already_exists', resource: 'agent', agent_id: 'a-1' },
    });
    expect(grpcStatusFor(result)).toBe(GrpcStatus.ALREADY_EXISTS);
  });

  it('maps ApiError the same way', () => {
    expect(classifyError(new ApiError('payload_too_large', 'too big'))).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    });
  });

  it('ignores a code that is not a wire code', () => {
    expect(classifyError(new FakeDomainError('something_else'))).toMatchObject({
      status: 500,
      code: 'internal',
      message: 'internal error',
    });
  });
});

describe('classifyError for event store errors', () => {
  it('maps WrongExpectedRevisionError to 409 with current_revision as a decimal string', () => {
    const result = classifyError(new WrongExpectedRevisionError('agent-a', '3', 12345678901234567890n));
    expect(result).toEqual({
      status: 409,
      code: 'conflict',
      message: expect.any(String),
      details: { current_revision: '12345678901234567890' },
    });
    expect(() => JSON.stringify(toEnvelope(result))).not.toThrow();
  });

  it('maps a missing stream to current_revision null', () => {
    expect(classifyError(new WrongExpectedRevisionError('agent-a', '3', null)).details).toEqual({
      current_revision: null,
    });
  });

  it('maps IdempotencyConflictError to 409', () => {
    expect(classifyError(new IdempotencyConflictError('agent-a', 'reused id')).code).toBe('conflict');
  });

  it('maps StoreUnavailableError to 503 without its message', () => {
    const result = classifyError(new StoreUnavailableError('esdb at 10.0.0.7:2113 refused'));
    expect(result).toMatchObject({ status: 503, code: 'unavailable' });
    expect(result.message).not.toContain('10.0.0.7');
  });

  it.each([
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    Object.assign(new Error('connection failure'), { code: '08006' }),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}),
  ])('maps a Postgres connection error to 503: %s', (error) => {
    expect(classifyError(error)).toMatchObject({ status: 503, code: 'unavailable' });
  });

  it('does not treat a constraint violation as unavailable, nor leak it', () => {
    const result = classifyError(
      Object.assign(new Error('duplicate key value violates unique constraint "secret_table_pkey"'), { code: '23505' }),
    );
    expect(result).toEqual({ status: 500, code: 'internal', message: 'internal error', details: {} });
  });
});

describe('classifyError for framework errors', () => {
  it.each([
    [new NotFoundException('Cannot GET /nope'), 404, 'not_found', 'Cannot GET /nope'],
    [new ForbiddenException(), 403, 'forbidden', 'Forbidden'],
    [new PayloadTooLargeException(), 413, 'payload_too_large', 'Payload Too Large'],
  ])('maps %s', (error, status, code, message) => {
    expect(classifyError(error)).toMatchObject({ status, code, message });
  });

  it('keeps every message of a Nest validation array', () => {
    expect(classifyError(new BadRequestException(['a must be a string', 'b should not exist']))).toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: { messages: ['a must be a string', 'b should not exist'] },
    });
  });

  it.each([
    ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 'payload_too_large'],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 'unsupported_media_type'],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 'validation_failed'],
    ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 'validation_failed'],
  ])('maps fastify %s to %i %s', (code, status, wire) => {
    expect(classifyError(fastifyError(code, status))).toMatchObject({ status, code: wire });
  });

  it('hides anything unknown behind 500 internal', () => {
    const result = classifyError(
      new TypeError("Cannot read properties of undefined (reading 'rows') at /app/dist/x.js"),
    );
    expect(toEnvelope(result)).toEqual({ error: { code: 'internal', message: 'internal error', details: {} } });
  });

  it.each([undefined, null, 'a string', 42])('survives a thrown %p', (thrown) => {
    expect(classifyError(thrown).code).toBe('internal');
  });
});

describe('gRPC status of a wire code', () => {
  it.each([
    ['validation_failed', GrpcStatus.INVALID_ARGUMENT],
    ['unauthorized', GrpcStatus.UNAUTHENTICATED],
    ['forbidden', GrpcStatus.PERMISSION_DENIED],
    ['not_found', GrpcStatus.NOT_FOUND],
    ['conflict', GrpcStatus.ABORTED],
    ['invariant_violated', GrpcStatus.FAILED_PRECONDITION],
    ['payload_too_large', GrpcStatus.RESOURCE_EXHAUSTED],
    ['unavailable', GrpcStatus.UNAVAILABLE],
    ['internal', GrpcStatus.INTERNAL],
  ] as const)('%s -> %i', (code, status) => {
    expect(grpcStatusFor({ code, details: {} })).toBe(status);
  });

  it('maps an "already exists" conflict to ALREADY_EXISTS', () => {
    expect(grpcStatusFor({ code: 'conflict', details: { reason: 'already_exists' } })).toBe(GrpcStatus.ALREADY_EXISTS);
  });

  it('carries the wire code and details in trailers', () => {
    const error = toServiceError(classifyError(new WrongExpectedRevisionError('agent-a', '1', 4n)));
    expect(error.code).toBe(GrpcStatus.ABORTED);
    expect(error.metadata?.get('error-code')).toEqual(['conflict']);
    expect(JSON.parse(String(error.metadata?.get('error-details')[0]))).toEqual({ current_revision: '4' });
  });
});
