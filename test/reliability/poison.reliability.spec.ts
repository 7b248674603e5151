import { randomUUID } from 'node:crypto';
import { agentStream } from '@app/core';
import { eventually } from '@app/event-store/testing';
import { uniqueIds } from './scenarios/scenario';
import { assertCleanHistory, checkHistory } from './support/history';
import { type Deployment, startDeployment } from './support/in-process';
import { registerAgents } from './support/workload';

jest.setTimeout(60_000);

/**
 * A poison event in an agent stream, written behind the service's back (a newer runtime, a tool):
 * it parks its agent only (ADR 0015). The other agents go on, readiness says so, and an operator's
 * audited skip applies the parked agent's held events in order.
 */
describe('a poison event in a stream', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment('poison');
  });
  afterAll(() => deployment?.close());

  it("parks its agent only: the others go on, /health/ready names it, and the operator's skip is audited", async () => {
    const { client, store } = deployment;
    const [poisoned, later] = uniqueIds('poison', 2);
    await registerAgents(client, [poisoned]);
    const before = await client.command(poisoned, 'POST', `/v1/agents/${poisoned}/work-items`, {
      work_item_id: 'w-1',
      objective: 'before the poison',
    });
    expect(before.status).toBe(201);
    const revision = await store.streamRevision(agentStream(poisoned));
    const { position } = await store.appendToStream(
      agentStream(poisoned),
      [
        {
          id: randomUUID(),
          type: 'WorkItemTeleported',
          data: { work_item_id: 'w-1', to: 'elsewhere' },
          metadata: { command_id: 'tool-1' },
        },
      ],
      revision!,
    );
    const after = await client.command(poisoned, 'PATCH', `/v1/agents/${poisoned}/work-items/w-1`, {
      objective: 'after the poison',
    });
    expect(after.status).toBe(200);
    await registerAgents(client, [later]);

    // The other agents go on: an agent registered after the poison event is read.
    await eventually(
      'the agent registered after the poison event to be read',
      () => client.get(`/v1/agents/${later}`),
      (reply) => reply.status === 200,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    const projection = async () =>
      (await client.get('/v1/admin/projections')).body.items.find(
        (item: { name: string }) => item.name === 'read_models',
      );
    const status = await projection();
    expect(status).toMatchObject({
      status: 'stalled',
      stalled_at: {
        position: position.toString(),
        stream: agentStream(poisoned),
        revision: (revision! + 1n).toString(),
        type: 'WorkItemTeleported',
        attempts: 1,
      },
    });
    expect(BigInt(status.checkpoint)).toBeGreaterThan(position);
    expect(status.stalled_at.error).toContain('unknown event type');
    // Not skipped: the parked agent's later events are held.
    expect((await client.get(`/v1/agents/${poisoned}/work-items/w-1`)).body).toMatchObject({
      objective: 'before the poison',
    });

    // Readiness names the stalled projection and its position; /health keeps its shape and tells the stall.
    const ready = await client.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error).toMatchObject({
      code: 'unavailable',
      details: { reason: 'projection_stalled', projection: 'read_models', position: position.toString() },
    });
    const health = await client.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      checks: { event_store: 'up', postgres: 'up' },
      projection_lag: { projection: 'read_models', stalled_at: position.toString(), parked_agents: 1 },
    });
    const listed = await client.get('/v1/admin/projections/read_models/dead-letters');
    expect(listed.body).toMatchObject({
      letters: [{ position: position.toString(), state: 'open', type: 'WorkItemTeleported' }],
      parked_agents: [{ agent_id: poisoned, letter_position: position.toString() }],
    });

    // The operator's skip: a reason is required, then the held events apply in order, audited.
    const path = `/v1/admin/projections/read_models/dead-letters/${position}`;
    expect((await client.post(`${path}/skip`, {})).body.error).toMatchObject({ code: 'validation_failed' });
    const skipped = await client.post(`${path}/skip`, { reason: 'written by a tool by mistake' });
    expect(skipped.status).toBe(200);
    expect(skipped.body).toMatchObject({ outcome: 'skipped', held_applied: 1, parked_at: null });
    expect((await client.get(`/v1/agents/${poisoned}/work-items/w-1`)).body).toMatchObject({
      objective: 'after the poison',
    });
    const [first] = await store.readStream(agentStream(poisoned), { from_revision: 0n, max_count: 1 });
    const actor = first.metadata.actor;
    expect(typeof actor).toBe('string');
    const audit = (await client.get('/v1/admin/projections/read_models/dead-letters')).body;
    expect(audit.parked_agents).toEqual([]);
    expect(audit.letters[0]).toMatchObject({
      state: 'skipped',
      resolved_by: actor,
      reason: 'written by a tool by mistake',
      actions: [{ action: 'skip', actor, outcome: 'skipped', reason: 'written by a tool by mistake' }],
    });
    expect(Date.parse(audit.letters[0].resolved_at)).not.toBeNaN();
    expect((await client.post(`${path}/retry`, {})).status).toBe(409);
    expect((await client.get('/health/ready')).status).toBe(200);
    expect(await projection()).toMatchObject({ status: 'ok', stalled_at: null });

    // A rebuild goes to the end and skips the skipped letter again.
    const rebuild = await client.post('/v1/admin/projections/rebuild', undefined);
    expect(rebuild.status).toBe(200);
    expect((await client.get(`/v1/agents/${poisoned}/work-items/w-1`)).body).toMatchObject({
      objective: 'after the poison',
    });
    expect((await client.get(`/v1/agents/${later}`)).status).toBe(200);

    // The store itself is intact: every acknowledged command once, contiguous revisions, global order.
    assertCleanHistory(await checkHistory({ url: deployment.url, log: deployment.log, projection: null }));
  });
});
