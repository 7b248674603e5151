import { Global, Module } from '@nestjs/common';
import type { AgentState } from '@app/domain';
import { LEASE_READINESS, type LeaseReadiness } from '@app/core';
import { REFUSAL_LOG, type RefusalLog } from '@app/application';
import { PROJECTION_RUNNER, type ProjectionRunner } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { agentsProjected, runtimeGrpcClient } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { has, parseExposition, type Sample, valueOf } from './support/metrics-text';

/** GET /metrics (ADR 0032): counters and histograms move with traffic; refusals leave a trace. */
describe('metrics over real HTTP and gRPC (admin exposure)', () => {
  let app: TestApp;
  let admin: ReturnType<typeof httpClient>;
  let scoped: ReturnType<typeof httpClient>;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  const agent = freshId('metrics');

  beforeAll(async () => {
    app = await startTestApp({
      tokens: 'tok-a=agent-x;tok-admin=*',
      env: { DATABASE_URL: await isolatedDatabaseUrl('metrics') },
    });
    admin = httpClient(app, 'tok-admin');
    scoped = httpClient(app, 'tok-a');
    grpc = runtimeGrpcClient(app);
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  const scrape = async (): Promise<Sample[]> => {
    const reply = await admin('GET', '/metrics');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(reply.body as string);
  };
  const drained = () => app.runtime.app.get<RefusalLog>(REFUSAL_LOG).drained();
  const COMMANDS = 'agent_runtime_command_duration_seconds_count';

  it('is refused without a token (401) and to a token that is not admin (403)', async () => {
    expect((await httpClient(app)('GET', '/metrics')).status).toBe(401);
    expect((await scoped('GET', '/metrics')).status).toBe(403);
  });

  it('exposes the process metrics and every runtime family', async () => {
    const samples = await scrape();
    expect(has(samples, 'process_cpu_user_seconds_total')).toBe(true);
    expect(has(samples, 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(has(samples, 'agent_runtime_projection_lag_events', { projection: 'read_models' })).toBe(true);
    expect(has(samples, 'agent_runtime_queued_messages')).toBe(true);
  });

  it('counts HTTP and gRPC commands by command and outcome, and their appends', async () => {
    const before = await scrape();
    expect((await admin('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const created = await grpc.call(
      'CreateWorkItem',
      { agent_id: agent, work_item_id: 'w-1', objective: 'one' },
      'tok-admin',
    );
    expect(created.error).toBeNull();
    const refused = await grpc.call(
      'CreateWorkItem',
      { agent_id: agent, work_item_id: 'w-1', objective: 'again' },
      'tok-admin',
    );
    expect(refused.error).not.toBeNull();
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      valueOf(after, COMMANDS, labels) - valueOf(before, COMMANDS, labels);
    expect(moved({ command: 'RegisterAgent', outcome: 'ok' })).toBe(1);
    expect(moved({ command: 'CreateWorkItem', outcome: 'ok' })).toBe(1);
    expect(moved({ command: 'CreateWorkItem', outcome: 'conflict' })).toBe(1);
    const appends = 'agent_runtime_append_duration_seconds_count';
    expect(valueOf(after, appends) - valueOf(before, appends)).toBe(2);
    expect(valueOf(after, 'agent_runtime_append_duration_seconds_bucket', { le: '+Inf' })).toBe(
      valueOf(after, appends),
    );
  });

  it('counts a scheduler decision by kind, and shows the agent by posture once projected', async () => {
    const before = await scrape();
    const activation = await admin('POST', `/v1/agents/${agent}/activations`, {});
    expect(activation.status).toBe(200);
    const kind = activation.body.decision.kind as string;
    await agentsProjected(app, agent);
    const after = await scrape();
    const decisions = 'agent_runtime_scheduler_decisions_total';
    expect(valueOf(after, decisions, { kind }) - valueOf(before, decisions, { kind })).toBe(1);
    expect(valueOf(after, 'agent_runtime_agents')).toBe(1);
    expect(valueOf(after, 'agent_runtime_open_work_items')).toBe(1);
  });

  it('shows the projection lag while the projector is stopped, and 0 once it caught up', async () => {
    const runner = app.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
    await agentsProjected(app, agent);
    expect(valueOf(await scrape(), 'agent_runtime_projection_lag_events', { projection: 'read_models' })).toBe(0);
    await runner.stop();
    try {
      expect(
        (await admin('POST', `/v1/agents/${agent}/messages`, { kind: 'operator_prompt', body: 'while stopped' }))
          .status,
      ).toBe(201);
      const lagging = await scrape();
      expect(valueOf(lagging, 'agent_runtime_projection_lag_events', { projection: 'read_models' })).toBeGreaterThan(0);
    } finally {
      await runner.start();
    }
    await agentsProjected(app, agent);
    const caughtUp = await scrape();
    expect(valueOf(caughtUp, 'agent_runtime_projection_lag_events', { projection: 'read_models' })).toBe(0);
    expect(valueOf(caughtUp, 'agent_runtime_projection_lag_seconds', { projection: 'read_models' })).toBe(0);
  });

  it('counts refusals and no-op controls by route and reason, and keeps them for admins', async () => {
    const before = await scrape();
    expect((await admin('PATCH', `/v1/agents/${agent}/work-items/no-such-item`, { objective: 'x' })).status).toBe(404);
    expect((await admin('POST', `/v1/agents/${agent}/control`, { action: 'pause' })).body.changed).toBe(true);
    expect((await admin('POST', `/v1/agents/${agent}/control`, { action: 'pause' })).body.changed).toBe(false);
    const grpcRefusal = await grpc.call(
      'UpdateWorkItem',
      { agent_id: agent, work_item_id: 'nope', objective: 'x' },
      'tok-admin',
    );
    expect(grpcRefusal.error).not.toBeNull();
    await drained();
    const after = await scrape();
    const refusals = 'agent_runtime_refusals_total';
    const moved = (labels: Record<string, string>) =>
      valueOf(after, refusals, labels) - valueOf(before, refusals, labels);
    expect(moved({ route: 'UpdateWorkItem', code: 'not_found' })).toBe(2);
    expect(moved({ route: 'Control', code: 'no_op', reason: 'no_op' })).toBe(1);
    expect(moved({ route: 'Control' })).toBe(1);

    const listed = await admin('GET', `/v1/admin/refusals?agent_id=${agent}&limit=3`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(3);
    expect(listed.body.total).toBeGreaterThanOrEqual(4);
    expect(listed.body.items[0]).toMatchObject({
      // The grant's printable name (the old form numbers them), never the secret.
      actor: 'token-2',
      route: 'UpdateWorkItem',
      agent_id: agent,
      code: 'not_found',
    });
    expect(listed.body.items[1]).toMatchObject({ route: 'Control', code: 'no_op', reason: 'no_op', agent_id: agent });
    expect(JSON.stringify(listed.body)).not.toContain('tok-admin');
    expect((await scoped('GET', '/v1/admin/refusals')).status).toBe(403);
    expect((await httpClient(app)('GET', '/v1/admin/refusals')).status).toBe(401);
    expect((await admin('GET', '/v1/admin/refusals?agent_id=not%20an%20id')).status).toBe(400);
  });
});

describe('metrics exposure modes, refusals retention and the readiness lease hook', () => {
  it('METRICS_TOKEN: the main port serves /metrics to that bearer only; refusals keep REFUSALS_RETAIN_ROWS rows', async () => {
    const token = 'scrape-token-0123456789';
    const app = await startTestApp({
      tokens: 'tok-admin=*',
      env: { DATABASE_URL: await isolatedDatabaseUrl('metrics_tok'), METRICS_TOKEN: token, REFUSALS_RETAIN_ROWS: '3' },
    });
    try {
      expect((await httpClient(app, token)('GET', '/metrics')).status).toBe(200);
      expect((await httpClient(app, 'tok-admin')('GET', '/metrics')).status).toBe(401);
      expect((await httpClient(app)('GET', '/metrics')).status).toBe(401);
      expect((await httpClient(app, `${token}x`)('GET', '/metrics')).status).toBe(401);

      const admin = httpClient(app, 'tok-admin');
      const agent = freshId('retain');
      expect((await admin('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
      for (let i = 0; i < 5; i++)
        expect((await admin('PATCH', `/v1/agents/${agent}/work-items/missing-${i}`, { objective: 'x' })).status).toBe(
          404,
        );
      await app.runtime.app.get<RefusalLog>(REFUSAL_LOG).drained();
      const listed = await admin('GET', '/v1/admin/refusals?limit=100');
      expect(listed.body.total).toBe(3);
      expect(listed.body.items.map((r: { message: string }) => r.message)).toEqual([
        expect.stringContaining('missing-4'),
        expect.stringContaining('missing-3'),
        expect.stringContaining('missing-2'),
      ]);
    } finally {
      await app.close();
    }
  });

  it('METRICS_PORT: its own listener without a token, 404 on the main port', async () => {
    const app = await startTestApp({ tokens: 'tok-admin=*', env: { METRICS_PORT: '0' } });
    try {
      expect(app.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const own = await fetch(`${app.metricsUrl}/metrics`);
      expect(own.status).toBe(200);
      expect(has(parseExposition(await own.text()), 'agent_runtime_projection_lag_events')).toBe(true);
      expect((await fetch(`${app.metricsUrl}/other`)).status).toBe(404);
      const main = await httpClient(app, 'tok-admin')('GET', '/metrics');
      expect(main).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    } finally {
      await app.close();
    }
  });

  it('GET /health/ready is 503 lease_missing while the lease hook says this replica lacks a lease; /health/live stays 200', async () => {
    let missing: string | null = 'shard 7 is not held';
    const leases: LeaseReadiness = { missingLease: async () => missing };
    @Global()
    @Module({ providers: [{ provide: LEASE_READINESS, useValue: leases }], exports: [LEASE_READINESS] })
    class LeaseHookModule {}
    const app = await startTestApp({ tokens: 'tok-admin=*', modules: [LeaseHookModule] });
    try {
      const anyone = httpClient(app);
      const ready = await anyone('GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.error).toMatchObject({
        code: 'unavailable',
        message: expect.stringContaining('shard 7 is not held'),
        details: { reason: 'lease_missing' },
      });
      expect(await anyone('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
      missing = null;
      expect((await anyone('GET', '/health/ready')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
