import { randomUUID } from 'node:crypto';
import type { AgentState } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { agentStream } from '@app/core';
import { PROJECTION_RUNNER, type ProjectionRunner } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { isolatedDatabaseUrl } from '../../support/postgres';

/** GET /health/ready (ADR 0015): 503 naming a stalled or lagging projection; /health keeps its shape. */
describe('readiness over real HTTP', () => {
  let app: TestApp;
  let store: EventStore;
  let runner: ProjectionRunner<AgentState>;
  beforeAll(async () => {
    app = await startTestApp({
      tokens: 'tok-admin=*',
      env: { DATABASE_URL: await isolatedDatabaseUrl('ready'), READY_MAX_LAG_SECONDS: '1' },
    });
    store = app.runtime.app.get<EventStore>(EVENT_STORE);
    runner = app.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
  });
  afterAll(() => app?.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        authorization: 'Bearer tok-admin',
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, any>) : undefined };
  };
  const register = (agentId: string) => call('POST', '/v1/agents', { agent_id: agentId });

  it('answers 200 on /health/live and /health/ready while every projection moves', async () => {
    expect(await register('ready-a')).toMatchObject({ status: 201 });
    expect(await call('GET', '/health/live')).toEqual({ status: 200, json: { status: 'ok' } });
    const ready = await eventually(
      'ready',
      () => call('GET', '/health/ready'),
      (r) => r.status === 200,
      {
        timeoutMs: 5_000,
        intervalMs: 50,
      },
    );
    expect(ready.json).toMatchObject({
      status: 'ok',
      checks: { event_store: 'up', postgres: 'up' },
      projections: [{ projection: 'read_models', ready: true, reason: null, stalled_at: null, parked_agents: 0 }],
    });
  });

  it('answers 503 naming the projection and the position of a poison event, while /health keeps its shape', async () => {
    const revision = await store.streamRevision(agentStream('ready-a'));
    const { position } = await store.appendToStream(
      agentStream('ready-a'),
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
      revision!,
    );
    const ready = await eventually(
      'a 503 from /health/ready',
      () => call('GET', '/health/ready'),
      (r) => r.status === 503,
      {
        timeoutMs: 5_000,
        intervalMs: 50,
      },
    );
    expect(ready.json!.error).toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining(`projection read_models stalled at position ${position}`),
      details: { reason: 'projection_stalled', projection: 'read_models', position: position.toString() },
    });
    const health = await call('GET', '/health');
    expect(health.status).toBe(200);
    expect(Object.keys(health.json!).sort()).toEqual(['checks', 'projection_lag', 'status']);
    expect(health.json).toMatchObject({
      status: 'ok',
      checks: { event_store: 'up', postgres: 'up' },
      projection_lag: { projection: 'read_models', stalled_at: position.toString(), parked_agents: 1 },
    });
    const skip = await call('POST', `/v1/admin/projections/read_models/dead-letters/${position}/skip`, {
      reason: 'e2e',
    });
    expect(skip).toMatchObject({ status: 200, json: { outcome: 'skipped' } });
    expect((await call('GET', '/health/ready')).status).toBe(200);
  });

  it('answers 503 projection_lagging when events wait on a checkpoint that has not moved for READY_MAX_LAG_SECONDS', async () => {
    await runner.stop();
    try {
      await register('ready-b');
      const ready = await eventually(
        'a 503 from /health/ready',
        () => call('GET', '/health/ready'),
        (r) => r.status === 503,
        {
          timeoutMs: 5_000,
          intervalMs: 100,
        },
      );
      expect(ready.json!.error.details).toMatchObject({ reason: 'projection_lagging', projection: 'read_models' });
    } finally {
      await runner.start();
    }
    await eventually(
      'ready again',
      () => call('GET', '/health/ready'),
      (r) => r.status === 200,
      {
        timeoutMs: 5_000,
        intervalMs: 50,
      },
    );
  });
});
