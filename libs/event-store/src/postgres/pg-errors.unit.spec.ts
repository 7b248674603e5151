import { IdempotencyConflictError, StoreUnavailableError, WrongExpectedRevisionError } from '../errors';
import { isUnavailable, mapPgError } from './pg-errors';

describe('mapping node-postgres errors', () => {
  it('turns ESWER into WrongExpectedRevisionError with the actual revision from DETAIL', () => {
    const mapped = mapPgError({ code: 'ESWER', detail: '18446744073709551615' }, { stream: 's', expected: '3' });
    expect(mapped).toBeInstanceOf(WrongExpectedRevisionError);
    expect(mapped).toMatchObject({ stream: 's', expected: '3', actual: 2n ** 64n - 1n });
    expect(mapPgError({ code: 'ESWER', detail: 'no_stream' }, { stream: 's' })).toMatchObject({ actual: null });
  });

  it('turns ESIDC and a duplicate event id into IdempotencyConflictError', () => {
    expect(mapPgError({ code: 'ESIDC', message: 'reused' }, { stream: 's' })).toBeInstanceOf(IdempotencyConflictError);
    expect(mapPgError({ code: '23505', constraint: 'events_event_id_key' }, { stream: 's' })).toBeInstanceOf(
      IdempotencyConflictError,
    );
  });

  it.each([
    { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' },
    { code: '57P01', message: 'terminating connection due to administrator command' },
    { code: '08006', message: 'connection failure' },
    { message: 'Connection terminated unexpectedly' },
    { message: 'timeout exceeded when trying to connect' },
  ])('treats %j as store unavailable', (error) => {
    expect(isUnavailable(error)).toBe(true);
    expect(mapPgError(error)).toBeInstanceOf(StoreUnavailableError);
  });

  it('treats AggregateError of refused connections (IPv4 + IPv6) as unavailable', () => {
    const error = new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })]);
    expect(isUnavailable(error)).toBe(true);
  });

  it('leaves other errors alone', () => {
    const error = { code: '42P01', message: 'relation "events" does not exist' };
    expect(mapPgError(error)).toBe(error);
  });
});
