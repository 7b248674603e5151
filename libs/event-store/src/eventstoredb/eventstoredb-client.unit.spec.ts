import { BACKWARDS, END, FORWARDS, excludeSystemEvents, streamNameFilter } from '@eventstore/db-client';
import { ReadReq } from '@eventstore/db-client/generated/streams_pb';
import { StoreUnavailableError } from '../errors';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { filteredReadAllRequest } from './eventstoredb-client';

/** The filtered $all read that @eventstore/db-client 6.x does not offer: the request it sends. */
describe('a filtered $all read', () => {
  it('asks the server for a filtered read (not a subscription): the head position request', () => {
    const request = filteredReadAllRequest(
      { direction: BACKWARDS, fromPosition: END, maxCount: 1 },
      streamNameFilter({ prefixes: ['agent-'] }),
    );
    const options = request.getOptions()!;
    expect(options.getAll()?.hasEnd()).toBe(true);
    expect(options.getReadDirection()).toBe(ReadReq.Options.ReadDirection.BACKWARDS);
    expect(options.getCount()).toBe('1');
    expect(options.hasSubscription()).toBe(false);
    expect(options.hasNoFilter()).toBe(false);
    const filter = options.getFilter()!;
    expect(filter.getStreamIdentifier()?.getPrefixList()).toEqual(['agent-']);
    expect(filter.hasEventType()).toBe(false);
    expect(filter.hasCount()).toBe(true);
    expect(filter.getCheckpointintervalmultiplier()).toBe(1);
  });

  it('pages forwards from a position with an event-type regex (excludeSystemEvents)', () => {
    const request = filteredReadAllRequest(
      { direction: FORWARDS, fromPosition: { commit: 42n, prepare: 42n }, maxCount: 100 },
      excludeSystemEvents(),
    );
    const options = request.getOptions()!;
    expect(options.getAll()?.getPosition()?.getCommitPosition()).toBe('42');
    expect(options.getReadDirection()).toBe(ReadReq.Options.ReadDirection.FORWARDS);
    expect(options.getCount()).toBe('100');
    expect(options.getFilter()?.getEventType()?.getRegex()).toBe('^[^$].*');
  });

  it('goes through the client: a closed port is StoreUnavailableError for the filtered reads too', async () => {
    const store = EventStoreDbEventStore.fromConnectionString('esdb://127.0.0.1:1?tls=false&streamNamespace=x-', {
      timeoutMs: 3000,
      streamPrefixes: ['agent-'],
    });
    try {
      await expect(store.headPosition()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.readAll()).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await store.close();
    }
  });
});
