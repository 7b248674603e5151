import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, type HttpReply } from '../../support/http';
import { freshId } from '../../support/postgres';

jest.setTimeout(120_000);

const CLIENTS = 16;
const ENQUEUES = 10;

/** `clients` callers at once, each sending `each` enqueues one after the other (no expected_revision). */
async function enqueueConcurrently(apps: TestApp[], agentId: string, clients: number, each: number) {
  const replies: HttpReply[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const http = httpClient(apps[client % apps.length], 'tok-mine');
      for (let i = 0; i < each; i++) {
        replies.push(
          await http('POST', `/v1/agents/${agentId}/messages`, {
            kind: 'operator_prompt',
            body: `client ${client} message ${i}`,
          }),
        );
      }
    }),
  );
  return replies;
}

async function queuedOf(app: TestApp, agentId: string): Promise<string[]> {
  const store = app.runtime.app.get<EventStore>(EVENT_STORE);
  const events = await store.readStream(agentStream(agentId));
  return events.filter((e) => e.type === 'MessageQueued').map((e) => String(e.data.body));
}

/** Issue 14 item 2: a command without expected_revision never fails for a race. */
describe('concurrent writers on one agent without expected_revision', () => {
  const agents = [freshId('agent'), freshId('agent')];
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const tokens = `tok-admin=*;tok-mine=${agents.join('|')}`;
    first = await startTestApp({ tokens, env: { RUNTIME_RATE_LIMIT: 'off' } });
    // A second instance on the same store (another replica): the API only, one projector is enough.
    second = await startTestApp({ tokens, env: { RUNTIME_ROLE: 'api', RUNTIME_RATE_LIMIT: 'off' } });
    for (const agent of agents)
      expect((await httpClient(first, 'tok-mine')('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('16 clients x 10 enqueues on one instance: 160 of 160 land, no 409', async () => {
    const replies = await enqueueConcurrently([first], agents[0], CLIENTS, ENQUEUES);
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    expect(replies).toHaveLength(CLIENTS * ENQUEUES);
    const queued = await queuedOf(first, agents[0]);
    expect(queued).toHaveLength(CLIENTS * ENQUEUES);
    expect(new Set(queued).size).toBe(CLIENTS * ENQUEUES);
  });

  it('16 clients x 10 enqueues split over two instances on one store: 160 of 160 land, no 409', async () => {
    const replies = await enqueueConcurrently([first, second], agents[1], CLIENTS, ENQUEUES);
    expect(replies.filter((r) => r.status !== 201).map((r) => [r.status, r.body?.error?.code])).toEqual([]);
    const queued = await queuedOf(first, agents[1]);
    expect(queued).toHaveLength(CLIENTS * ENQUEUES);
    expect(new Set(queued).size).toBe(CLIENTS * ENQUEUES);
  });
});
