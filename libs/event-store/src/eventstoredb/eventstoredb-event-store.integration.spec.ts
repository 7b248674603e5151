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
});
