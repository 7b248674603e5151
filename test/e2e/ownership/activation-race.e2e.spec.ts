import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore, WrongExpectedRevisionError } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';

jest.setTimeout(120_000);

/**
 * Issue 18 item 1, its last clause: activations stay callable on any replica and rely on the
 * same optimistic concurrency as the scheduler worker (ADR 0035). Replica A's activation decides
 * on the agent's state; before its first write lands, a caller writes to the agent through
 * replica B. A's write names the revision its decision was computed from, so the store refuses
 * it; A decides again on the new state and opens one turn. One decision, made on the latest state.
 */
describe('an activation racing a write on another replica', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { DATABASE_URL: await isolatedDatabaseUrl('activation_race'), RUNTIME_ROLE: 'api,projector' };
    a = await startTestApp({ env });
    b = await startTestApp({ env });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("is refused by the store when B wrote first, decides again on B's write and opens exactly one turn", async () => {
    const agent = freshId('actrace');
    const [onA, onB] = [a, b].map((app) => httpClient(app, 'tok-admin'));
    expect((await onA('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const message = { kind: 'operator_prompt', body: 'start' };
    expect((await onA('POST', `/v1/agents/${agent}/messages`, message)).status).toBeLessThan(300);

    // A's store: the first append to the agent's stream waits for B's write, then goes on as it was.
    const store = a.runtime.app.get<EventStore>(EVENT_STORE);
    const append = store.appendToStream.bind(store);
    const refused: unknown[] = [];
    let rival: number | undefined;
    store.appendToStream = (async (...args: Parameters<EventStore['appendToStream']>) => {
      if (args[0] === agentStream(agent) && rival === undefined) {
        rival = (await onB('POST', `/v1/agents/${agent}/work-items`, { work_item_id: 'w-b', objective: 'by B' }))
          .status;
      }
      try {
        return await append(...args);
      } catch (error) {
        refused.push(error);
        throw error;
      }
    }) as EventStore['appendToStream'];

    try {
      const activation = await onA('POST', `/v1/agents/${agent}/activations`, { lease_ttl_ms: 60_000 });
      expect(activation.status).toBe(200);
      expect(activation.body.decision.kind).toBe('StartModelTurn');
    } finally {
      store.appendToStream = append;
    }
    expect(rival).toBe(201);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(WrongExpectedRevisionError);

    const events = await store.readStream(agentStream(agent));
    const created = events.find((event) => event.type === 'WorkItemCreated' && event.data.work_item_id === 'w-b');
    const started = events.filter((event) => event.type === 'TurnStarted');
    const decided = events.filter(
      (event) => event.type === 'SchedulerDecisionRecorded' && event.revision > created!.revision,
    );
    expect(created).toBeDefined();
    expect(started).toHaveLength(1);
    expect(started[0].revision).toBeGreaterThan(created!.revision);
    // Nothing the activation wrote landed before B's write: every write of its step came after it.
    expect(events.filter((event) => event.revision < created!.revision).map((event) => event.type)).not.toContain(
      'SchedulerDecisionRecorded',
    );
    expect(decided.length).toBeGreaterThan(0);
  });
});
