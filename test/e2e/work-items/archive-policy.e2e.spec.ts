import { ArchivePolicy, SCHEDULER_WORKER, type SchedulerWorker } from '@app/application';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { agentsProjected } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';

const DAY_MS = 86_400_000;

/**
 * ARCHIVE_COMPLETED_AFTER on the real runtime with its scheduler worker: a pass archives the
 * completed items older than now minus the policy, for the agents that have some, and a pass
 * with nothing left records nothing. The spec moves the runtime's clock instead of waiting.
 */
describe('the automatic archive policy (ARCHIVE_COMPLETED_AFTER)', () => {
  const agent = freshId('agent');
  const idle = freshId('agent');
  let offsetMs = 0;
  let app: TestApp;
  let admin: ReturnType<typeof httpClient>;
  const base = `/v1/agents/${agent}/work-items`;

  beforeAll(async () => {
    app = await startTestApp({
      scheduler: true,
      env: { ARCHIVE_COMPLETED_AFTER: '30d' },
      clock: { now: () => new Date(Date.now() + offsetMs) },
    });
    admin = httpClient(app, 'tok-admin');
    for (const id of [agent, idle]) expect((await admin('POST', '/v1/agents', { agent_id: id })).status).toBe(201);
    for (const work_item_id of ['w-old', 'w-open'])
      expect((await admin('POST', base, { work_item_id, objective: work_item_id })).status).toBe(201);
    expect((await admin('POST', `${base}/w-old/complete`, {})).status).toBe(200);
  });
  afterAll(() => app?.close());

  const policy = () => app.runtime.app.get(ArchivePolicy, { strict: false });

  /**
   * The worker at rest for the agent: a work-queue tick it emitted for w-old before the item was
   * completed is still queued until the worker reduces it, and a queued message keeps its item live.
   */
  async function settled(): Promise<void> {
    const worker = app.runtime.app.get<SchedulerWorker>(SCHEDULER_WORKER);
    const events = async () =>
      (await app.runtime.app.get<EventStore>(EVENT_STORE).readStream(agentStream(agent))).length;
    for (let pass = 0; ; pass++) {
      if (pass === 20) throw new Error(`the scheduler never came to rest for ${agent}`);
      const before = await events();
      worker.poke(agent);
      await worker.idle();
      if ((await events()) === before) return;
    }
  }

  it('archives nothing while the completed item is younger than the policy', async () => {
    await settled();
    await agentsProjected(app, agent, idle);
    expect(await policy().runOnce()).toEqual([]);
  });

  it('archives it once it is older, only for the agent that has one, and records nothing on the next pass', async () => {
    offsetMs = 31 * DAY_MS;
    expect(await policy().runOnce()).toEqual([agent]);
    await agentsProjected(app, agent);
    const item = await admin('GET', `${base}/w-old`);
    expect(item.body).toMatchObject({ id: 'w-old', archived: true });
    const open = await admin('GET', `${base}?filter=all`);
    expect(open.body.items.map((i: { id: string }) => i.id)).toEqual(['w-open']);
    expect(await policy().runOnce()).toEqual([]);
  });
});
