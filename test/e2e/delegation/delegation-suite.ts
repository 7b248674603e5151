import { DelegationHandoffWorkerModule, HANDOFF_WORKER, type HandoffWorker } from '@app/application';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { isolatedDatabaseUrl } from '../../support/postgres';

/** parent-1's token also covers its private children; tok-other acts on other-1 only. */
export const DELEGATION_TOKENS = 'p:host=tok-parent-0123456789@parent-1;o:host=tok-other-01234567@other-1;tok-admin=*';

/**
 * The runtime without the scheduler worker (the spec drives activations itself) but with the
 * hand-off process manager, and a wait for it to have handled everything written so far.
 */
export async function startDelegationApp(): Promise<{ app: TestApp; handedOff: () => Promise<void> }> {
  // The hand-off follows the whole store, and the HTTP and gRPC suites use the same agent ids: a
  // schema of its own for each app, as for a scheduler app.
  const app = await startTestApp({
    tokens: DELEGATION_TOKENS,
    modules: [DelegationHandoffWorkerModule],
    env: { DATABASE_URL: await isolatedDatabaseUrl('delegation') },
  });
  const store = app.runtime.app.get<EventStore>(EVENT_STORE);
  const worker = app.runtime.app.get<HandoffWorker>(HANDOFF_WORKER);
  const handedOff = async () => {
    const head = await store.headPosition();
    if (head !== null) await worker.reached(head);
  };
  return { app, handedOff };
}

/** Register the agents over HTTP (admin), and give parent-1 an item in focus. */
export async function seedParent(app: TestApp, parent = 'parent-1'): Promise<void> {
  const admin = httpClient(app, 'tok-admin');
  expect((await admin('POST', '/v1/agents', { agent_id: parent })).status).toBe(201);
  expect((await admin('POST', '/v1/agents', { agent_id: 'other-1' })).status).toBe(201);
  const host = httpClient(app, 'tok-parent-0123456789');
  const created = await host('POST', `/v1/agents/${parent}/work-items`, {
    work_item_id: 'w-parent',
    objective: 'Ship it',
  });
  expect(created.status).toBe(201);
  expect((await host('POST', `/v1/agents/${parent}/work-items/w-parent/pick`, {})).status).toBe(200);
  expect(
    (await host('POST', `/v1/agents/${parent}/work-items`, { work_item_id: 'w-other', objective: 'Other' })).status,
  ).toBe(201);
}
