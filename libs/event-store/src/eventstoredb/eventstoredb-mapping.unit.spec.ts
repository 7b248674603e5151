import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  UnavailableError,
  WrongExpectedVersionError,
  type RecordedEvent,
} from '@eventstore/db-client';
import { StoreUnavailableError, WrongExpectedRevisionError } from '../errors';
import {
  fromEsdbPosition,
  fromRecordedEvent,
  isEsdbUnavailable,
  isSystemEvent,
  logFilter,
  mapEsdbError,
  oneStreamFilter,
  splitConnectionString,
  toEsdbEvent,
  toEsdbExpectedRevision,
  toEsdbPosition,
} from './eventstoredb-mapping';

describe('EventStoreDB mapping', () => {
  it('takes streamNamespace out of the connection string (the client does not know it)', () => {
    expect(splitConnectionString('esdb://a:2113,b:2113?tls=false&streamNamespace=run-1-')).toEqual({
      client: 'esdb://a:2113,b:2113?tls=false',
      namespace: 'run-1-',
    });
    expect(splitConnectionString('esdb://a:2113?streamNamespace=x')).toEqual({
      client: 'esdb://a:2113',
      namespace: 'x',
    });
    expect(splitConnectionString('esdb://a:2113?tls=false')).toEqual({ client: 'esdb://a:2113?tls=false' });
  });

  it('filters the log by stream prefix (with the namespace) or excludes system events', () => {
    expect(logFilter({ prefixes: ['agent-'] })).toMatchObject({ filterOn: 'streamName', prefixes: ['agent-'] });
    expect(logFilter({ prefixes: ['agent-'], namespace: 'n-' })).toMatchObject({ prefixes: ['n-agent-'] });
    expect(logFilter({ namespace: 'n-' })).toMatchObject({ prefixes: ['n-'] });
    expect(logFilter({})).toMatchObject({ filterOn: 'eventType', regex: expect.any(String) });
    const one = oneStreamFilter('agent-a.b+(c)') as { regex: string };
    expect(new RegExp(one.regex).test('agent-a.b+(c)')).toBe(true);
    expect(new RegExp(one.regex).test('agent-a.b+(c)d')).toBe(false);
    expect(new RegExp(one.regex).test('agent-aXb+(c)')).toBe(false);
  });

  it.each([
    ['no_stream', NO_STREAM],
    ['stream_exists', STREAM_EXISTS],
    ['any', ANY],
    [2n ** 60n, 2n ** 60n],
  ] as const)('maps expected revision %s', (expected, esdb) => {
    expect(toEsdbExpectedRevision(expected)).toBe(esdb);
  });

  it('keeps the caller id as the event id (idempotency key) and writes JSON', () => {
    const event = toEsdbEvent({
      id: '3f1d2c4e-0000-4000-8000-000000000001',
      type: 'T',
      data: { a: 1 },
      metadata: { actor: 'x' },
    });
    expect(event).toMatchObject({
      id: '3f1d2c4e-0000-4000-8000-000000000001',
      type: 'T',
      contentType: 'application/json',
      data: { a: 1 },
      metadata: { actor: 'x' },
    });
  });

  it('uses the commit position; unsigned max means "no position"', () => {
    expect(fromEsdbPosition({ commit: 2n ** 60n, prepare: 2n ** 60n })).toBe(2n ** 60n);
    expect(fromEsdbPosition({ commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n })).toBeUndefined();
    expect(fromEsdbPosition(undefined)).toBeUndefined();
    expect(toEsdbPosition(7n)).toEqual({ commit: 7n, prepare: 7n });
  });

  it('converts a recorded event', () => {
    const recorded = {
      streamId: 'agent-1',
      id: 'id-1',
      isJson: true,
      revision: 2n ** 55n,
      type: 'T',
      created: new Date('2024-05-01T10:00:00.123Z'),
      data: { a: 1 },
      metadata: { actor: 'x' },
      position: { commit: 99n, prepare: 99n },
    } as RecordedEvent;
    expect(fromRecordedEvent(recorded)).toEqual({
      id: 'id-1',
      stream: 'agent-1',
      type: 'T',
      data: { a: 1 },
      metadata: { actor: 'x' },
      revision: 2n ** 55n,
      position: 99n,
      recorded_at: '2024-05-01T10:00:00.123Z',
    });
    expect(fromRecordedEvent({ ...recorded, position: undefined, metadata: undefined } as RecordedEvent)).toMatchObject(
      { position: -1n, metadata: {} },
    );
  });

  it('recognises system events', () => {
    expect(isSystemEvent({ streamId: '$stats-0.0.0.0:2113', type: '$statsCollected' })).toBe(true);
    expect(isSystemEvent({ streamId: 'agent-1', type: 'WorkItemCreated' })).toBe(false);
  });

  it('maps WrongExpectedVersionError to WrongExpectedRevisionError with the actual revision', () => {
    const existing = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 1n, current: 4n });
    expect(mapEsdbError(existing, { stream: 's', expected: 1n })).toMatchObject({
      stream: 's',
      expected: '1',
      actual: 4n,
    });
    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 's',
      expected: STREAM_EXISTS,
      current: NO_STREAM,
    });
    const mapped = mapEsdbError(missing, { stream: 's', expected: 'stream_exists' });
    expect(mapped).toBeInstanceOf(WrongExpectedRevisionError);
    expect(mapped).toMatchObject({ expected: 'stream_exists', actual: null });
  });

  it('maps an unavailable server to StoreUnavailableError and leaves other errors alone', () => {
    const unavailable = new UnavailableError();
    expect(isEsdbUnavailable(unavailable)).toBe(true);
    expect(mapEsdbError(unavailable)).toBeInstanceOf(StoreUnavailableError);
    expect(isEsdbUnavailable({ code: 14, message: 'No connection established' })).toBe(true);
    const other = new Error('boom');
    expect(mapEsdbError(other)).toBe(other);
  });
});
