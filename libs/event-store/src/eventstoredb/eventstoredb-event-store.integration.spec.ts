import { randomUUID } from 'node:crypto';
import { newEvent, newEvents } from '../testing/contract-helpers';
import { describeIf, dockerAvailable } from '../testing/describe-if';
import { runEventStoreContract } from '../testing/event-store.contract';
import { startEventStoreDb, type StartedEventStoreDb } from '../testing/eventstoredb-container';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const external = process.env.EVENTSTORE_CONNECTION_STRING;
const reason = 'no EVENTSTORE_CONNECTION_STRING and no container engine (TEST_DOCKER_AVAILABLE=0)';

describeIf(Boolean(external) || dockerAvailable(), 'EventStoreDB adapter', reason, () => {
  let server: StartedEventStoreDb | undefined;
  let connectionString = external ?? '';

  beforeAll(async () => {
    if (external) return;
    server = await startEventStoreDb();
    connectionString = server.connectionString;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  runEventStoreContract('eventstoredb', async () => EventStoreDbEventStore.fromConnectionString(connectionString));

  // The runtime's view: a namespace of its own, its agent streams filtered by the server.
  describe('the agent log, filtered by the server', () => {
    const namespace = `it-${randomUUID().slice(0, 8)}-`;
    const agents = () =>
      EventStoreDbEventStore.fromConnectionString(
        `${connectionString}${connectionString.includes('?') ? '&' : '?'}streamNamespace=${namespace}`,
        {
          streamPrefixes: ['agent-'],
        },
      );

    it('finds the head past foreign streams, and stream reads carry the $all positions', async () => {
      const store = agents();
      const other = EventStoreDbEventStore.fromConnectionString(connectionString);
      try {
        const last = await store.appendToStream('agent-a', newEvents(3), 'no_stream');
        for (let i = 0; i < 50; i++) await other.appendToStream(`${namespace}other-${i}`, [newEvent()], 'no_stream');
        expect(await store.headPosition()).toBe(last.position);
        const inLog = await store.readAll();
        expect(inLog.map((e) => e.stream)).toEqual(['agent-a', 'agent-a', 'agent-a']);
        expect((await store.readStream('agent-a')).map((e) => e.position)).toEqual(inLog.map((e) => e.position));
      } finally {
        await Promise.all([store.close(), other.close()]);
      }
    });
  });
});
