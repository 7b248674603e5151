import { randomUUID } from 'node:crypto';
import type { AgentState } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { agentStream } from '@app/core';
import { PROJECTION_RUNNER, type ProjectionRunner } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { isolatedDatabaseUrl } from '../../support/postgres';

const TOKENS = 'tok-admin=*';
const PAIRS = 200;
// 200 pairs take seconds, longer on a loaded machine: no timing is asserted.
jest.setTimeout(180_000);

/** One write and the read that must see it: `fresh` says whether the read's body includes the write. */
interface Pair {
  write(): Promise<{ status: number; body: any }>;
  read(minPosition: string | null): Promise<{ status: number; body: any }>;
  fresh(body: any): boolean;
}

/**
 * Issue 16 item 1 over HTTP: every command reply carries `position`; a read with
 * `min_position` answers once the read models include it (docs/decisions/0023).
 */
describe('read-your-writes over HTTP', () => {
  let app: TestApp;
  let http: ReturnType<typeof httpClient>;
  const agent = `ryw-${randomUUID().slice(0, 8)}`;
  const q = (minPosition: string | null) => (minPosition === null ? '' : `min_position=${minPosition}`);

  beforeAll(async () => {
    // Hundreds of requests in a few seconds: the per-token rate limit is not what this spec is about.
    app = await startTestApp({
      tokens: TOKENS,
      env: { DATABASE_URL: await isolatedDatabaseUrl('ryw_http'), RUNTIME_RATE_LIMIT: 'off' },
    });
    http = httpClient(app, 'tok-admin');
    expect((await http('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    expect((await http('POST', `/v1/agents/${agent}/work-items`, { work_item_id: 'w-1', objective: 'o' })).status).toBe(
      201,
    );
  });
  afterAll(() => app?.close());

  /** The i-th pair: PATCH then GET the item, register then GET the agent, enqueue then list the messages. */
  function pair(i: number): Pair {
    switch (i % 3) {
      case 0: {
        const objective = `objective ${i} ${randomUUID()}`;
        return {
          write: () => http('PATCH', `/v1/agents/${agent}/work-items/w-1`, { objective }),
          read: (p) => http('GET', `/v1/agents/${agent}/work-items/w-1?${q(p)}`),
          fresh: (body) => body.objective === objective,
        };
      }
      case 1: {
        const id = `${agent}-n${i}-${randomUUID().slice(0, 6)}`;
        return {
          write: () => http('POST', '/v1/agents', { agent_id: id }),
          read: (p) => http('GET', `/v1/agents/${id}?${q(p)}`),
          fresh: (body) => body?.agent_id === id,
        };
      }
      default: {
        const text = `message ${i} ${randomUUID()}`;
        return {
          write: () => http('POST', `/v1/agents/${agent}/messages`, { kind: 'operator_prompt', body: text }),
          read: (p) => http('GET', `/v1/agents/${agent}/messages?status=all&limit=500&${q(p)}`),
          fresh: (body) => (body.items ?? []).some((m: any) => m.body === text),
        };
      }
    }
  }

  /** Runs PAIRS write-then-read pairs; returns how many reads missed their write. */
  async function stalePairs(withMinPosition: boolean): Promise<number> {
    let stale = 0;
    for (let i = 0; i < PAIRS; i++) {
      const p = pair(i);
      const written = await p.write();
      expect(written.status).toBeLessThan(300);
      expect(written.body.position).toMatch(/^\d+$/);
      const read = await p.read(withMinPosition ? written.body.position : null);
      // Stale: an older body, or 404 for an agent the read models do not have yet. Any other refusal is a failure.
      expect(withMinPosition ? [200] : [200, 404]).toContain(read.status);
      if (read.status !== 200 || !p.fresh(read.body)) stale++;
    }
    return stale;
  }

  it('answers every read with min_position after its write: 0 stale reads in 200 pairs', async () => {
    expect(await stalePairs(true)).toBe(0);
  });

  it('without min_position, counts the reads that missed their write (measured, not asserted)', async () => {
    const stale = await stalePairs(false);
    // The measurement. Every write and read succeeded (stalePairs); how many reads were stale is
    // reported, not a rule.
    console.log(
      `read-your-writes (HTTP, in-process projector): ${stale} of ${PAIRS} reads without min_position were stale`,
    );
  });

  it('carries position on every command reply: the position of its last event', async () => {
    const reply = await http('POST', `/v1/agents/${agent}/work-items/w-1/pick`, { reason: 'now' });
    expect(reply.status).toBe(200);
    const events = (await http('GET', `/v1/agents/${agent}/events?after=${BigInt(reply.body.revision) - 1n}`)).body;
    expect(events.items[0]).toMatchObject({ revision: reply.body.revision, position: reply.body.position });
  });

  it("answers a replayed command and a no-op command with the position of the agent's last event", async () => {
    const key = randomUUID();
    const first = await http(
      'PATCH',
      `/v1/agents/${agent}/work-items/w-1`,
      { objective: 'replayed' },
      {
        'idempotency-key': key,
      },
    );
    expect(first.status).toBe(200);
    const later = await http('POST', `/v1/agents/${agent}/messages`, { kind: 'operator_prompt', body: 'after' });
    expect(BigInt(later.body.position)).toBeGreaterThan(BigInt(first.body.position));
    const last = async () => {
      const page = (await http('GET', `/v1/agents/${agent}/events?after=${BigInt(later.body.revision) - 1n}`)).body;
      return page.items.at(-1);
    };
    const replayed = await http(
      'PATCH',
      `/v1/agents/${agent}/work-items/w-1`,
      { objective: 'replayed' },
      {
        'idempotency-key': key,
      },
    );
    expect(replayed.status).toBe(200);
    expect(replayed.body.revision).toBe(first.body.revision);
    expect(replayed.body.position).toBe((await last()).position);
    expect(replayed.body.position).toBe(later.body.position);

    const noop = await http('POST', `/v1/agents/${agent}/control`, { action: 'resume' });
    expect(noop.body).toMatchObject({ changed: false, revision: later.body.revision });
    expect(noop.body.position).toBe(later.body.position);
    expect((await last()).revision).toBe(later.body.revision); // nothing was appended
  });

  it('refuses a malformed min_position with 400 validation_failed naming the field', async () => {
    for (const bad of ['abc', '-1', '1.5', '1e3', '99999999999999999999999', '%20', 'min_position=1&min_position=2']) {
      const query = bad.startsWith('min_position=') ? bad : `min_position=${bad}`;
      const reply = await http('GET', `/v1/agents/${agent}/work-items?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'min_position' } });
    }
    // Also on a store read (it ignores a valid one) and on a route across agents.
    expect((await http('GET', `/v1/agents/${agent}/context?min_position=x`)).status).toBe(400);
    expect((await http('GET', '/v1/agents?min_position=x')).status).toBe(400);
  });

  it("takes min_position out before the query is validated: the route's own parameters still apply", async () => {
    const written = await http('PATCH', `/v1/agents/${agent}/work-items/w-1`, { objective: 'listed' });
    const list = await http(
      'GET',
      `/v1/agents/${agent}/work-items?filter=open&limit=5&min_position=${written.body.position}`,
    );
    expect(list.status).toBe(200);
    expect(list.body.items[0]).toMatchObject({ id: 'w-1', objective: 'listed' });
    expect((await http('GET', `/v1/agents/${agent}/work-items?filter=nope&min_position=1`)).status).toBe(400);
    expect((await http('GET', `/v1/agents/${agent}/work-items?unknown=1&min_position=1`)).status).toBe(400);
    // Across agents, and on the store reads that ignore it.
    expect((await http('GET', `/v1/agents?min_position=${written.body.position}`)).status).toBe(200);
    expect((await http('GET', `/v1/agents/${agent}/events?min_position=${written.body.position}`)).status).toBe(200);
  });
});

/** The bound: 503 read_model_lagging with Retry-After when the read models cannot include the position in time. */
describe('read-your-writes when the read models lag', () => {
  let app: TestApp;
  let http: ReturnType<typeof httpClient>;
  let runner: ProjectionRunner<AgentState>;
  let store: EventStore;
  const agent = 'lag-a';

  beforeAll(async () => {
    app = await startTestApp({
      tokens: TOKENS,
      env: { DATABASE_URL: await isolatedDatabaseUrl('ryw_lag'), MIN_POSITION_WAIT_MS: '300' },
    });
    http = httpClient(app, 'tok-admin');
    runner = app.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
    store = app.runtime.app.get<EventStore>(EVENT_STORE);
    for (const id of [agent, 'lag-b']) expect((await http('POST', '/v1/agents', { agent_id: id })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it('answers 503 read_model_lagging with Retry-After while the projector is stopped, and the read once it runs', async () => {
    await runner.stop();
    let written: { body: any };
    try {
      written = await http('POST', `/v1/agents/${agent}/work-items`, { work_item_id: 'w-stop', objective: 'o' });
      const read = await http('GET', `/v1/agents/${agent}/work-items/w-stop?min_position=${written.body.position}`);
      expect(read.status).toBe(503);
      expect(read.headers.get('retry-after')).toBe('1');
      expect(read.body.error).toMatchObject({
        code: 'read_model_lagging',
        details: {
          min_position: written.body.position,
          agent_id: agent,
          waited_ms: 300,
          retry_after_seconds: 1,
          projections: [{ projection: 'read_models', reason: 'behind', parked_at: null }],
        },
      });
      expect(BigInt(read.body.error.details.projections[0].checkpoint)).toBeLessThan(BigInt(written.body.position));
    } finally {
      await runner.start();
    }
    const read = await http('GET', `/v1/agents/${agent}/work-items/w-stop?min_position=${written.body.position}`);
    expect(read).toMatchObject({ status: 200, body: { id: 'w-stop' } });
  });

  it('answers 503 for an agent parked by a poison event at or before min_position, not for other agents, until it is resumed', async () => {
    const before = await http('POST', `/v1/agents/${agent}/work-items`, { work_item_id: 'w-held', objective: 'o' });
    const revision = await store.streamRevision(agentStream(agent));
    const { position } = await store.appendToStream(
      agentStream(agent),
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
      revision!,
    );
    await eventually(
      'the agent parked',
      () => runner.parkedAgents.map((a) => a.agent_id),
      (parked) => parked.includes(agent),
    );
    await runner.waitFor(position);

    const held = await http('GET', `/v1/agents/${agent}/work-items?min_position=${position}`);
    expect(held.status).toBe(503);
    expect(held.headers.get('retry-after')).toBe('1');
    expect(held.body.error.details.projections).toEqual([
      {
        projection: 'read_models',
        checkpoint: expect.any(String),
        reason: 'agent_parked',
        parked_at: position.toString(),
      },
    ]);
    // What the read models hold of the agent (before the letter), and every other agent, still answer.
    expect(
      (await http('GET', `/v1/agents/${agent}/work-items/w-held?min_position=${before.body.position}`)).status,
    ).toBe(200);
    expect((await http('GET', `/v1/agents/lag-b/work-items?min_position=${position}`)).status).toBe(200);
    expect((await http('GET', `/v1/agents?min_position=${position}`)).status).toBe(200);

    const skip = await http('POST', `/v1/admin/projections/read_models/dead-letters/${position}/skip`, {
      reason: 'a test poison',
    });
    expect(skip.status).toBe(200);
    expect((await http('GET', `/v1/agents/${agent}/work-items?min_position=${position}`)).status).toBe(200);
  });
});
