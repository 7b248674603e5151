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
 * the projector must stop there visibly, not spin on it and not skip it.
 */
describe('a poison event in a stream', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment('poison');
  });
  afterAll(() => deployment?.close());

  it('sends the projector to a dead letter with a visible "stalled at position" status, without a hot loop or a silent skip', async () => {
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
    await registerAgents(client, [later]);
    const after = await client.command(poisoned, 'PATCH', `/v1/agents/${poisoned}/work-items/w-1`, {
      objective: 'after the poison',
    });
    expect(after.status).toBe(200);

    const stalled = async () =>
      (await client.get('/v1/admin/projections')).body.items.find(
        (item: { name: string }) => item.name === 'read_models',
      );
    const status = await eventually(
      'the read_models projection to report itself stalled',
      stalled,
      (projection) => projection?.status === 'stalled',
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    expect(status).toMatchObject({
      status: 'stalled',
      checkpoint: (position - 1n).toString(),
      stalled_at: {
        position: position.toString(),
        stream: agentStream(poisoned),
        revision: (revision! + 1n).toString(),
        type: 'WorkItemTeleported',
        attempts: expect.any(Number),
      },
    });
    expect(status.stalled_at.error).toContain('unknown event type');

    // Not skipped: nothing after the poison reaches the read models.
    expect((await client.get(`/v1/agents/${poisoned}/work-items/w-1`)).body).toMatchObject({
      objective: 'before the poison',
    });
    expect((await client.get(`/v1/agents/${later}`)).status).toBe(404);
    // Not a hot loop: retries with a doubling delay (1 s, 2 s, 4 s...).
    // Time-based on purpose: the claim is a retry rate over 2.5 s; the runner's retry delay runs on real timers in the app.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const { attempts } = (await stalled()).stalled_at;
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThanOrEqual(3);
    // A rebuild stops at the same place and says so.
    const rebuild = await client.post('/v1/admin/projections/rebuild', undefined);
    expect(rebuild.status).toBe(409);
    expect(rebuild.body.error).toMatchObject({
      code: 'conflict',
      details: { reason: 'projection_stalled', position: position.toString() },
    });
    expect(await stalled()).toMatchObject({ status: 'stalled', checkpoint: (position - 1n).toString() });

    // The store itself is intact: every acknowledged command once, contiguous revisions, global order.
    assertCleanHistory(await checkHistory({ url: deployment.url, log: deployment.log, projection: null }));
  });
});
