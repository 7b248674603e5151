import { randomUUID } from 'node:crypto';
import type { AgentState } from '@app/domain';
import { agentStream } from '@app/core';
import {
  createProjectionRunner,
  ListenedCoverage,
  type ProjectionRunner,
  READ_MODELS_PROJECTION,
  ReadBarrier,
  RunnerCoverage,
} from '@app/read-models';
import { ProjectionHarness } from './support/projection-harness';

const WAITERS = 100;

/**
 * Read-your-writes (ADR 0023): reads wait on the read models' coverage, woken by the projection
 * runner of the process or by LISTEN/NOTIFY of another process's checkpoint advances, never by a
 * query loop per waiting read.
 */
describe('ReadBarrier', () => {
  let world: ProjectionHarness;
  let runner: ProjectionRunner<AgentState>;
  const register = (agentId: string) =>
    world.run(agentId, [(meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta })]);

  beforeAll(async () => {
    world = await ProjectionHarness.open('ryw_barrier');
    runner = createProjectionRunner(world.pool, world.store, () => undefined);
  });
  afterAll(async () => {
    await runner.stop();
    await world.close();
  });

  describe('on the notices of a projector elsewhere (ListenedCoverage)', () => {
    let coverage: ListenedCoverage;
    let barrier: ReadBarrier;
    beforeAll(() => {
      coverage = new ListenedCoverage(world.pool);
      barrier = new ReadBarrier(coverage, [READ_MODELS_PROJECTION]);
    });
    afterAll(() => barrier.close());

    it('wakes many waiting reads from the checkpoint notices, with no database read per waiter or per advance', async () => {
      const agents = Array.from({ length: WAITERS }, (_, i) => `b-${i}`);
      for (const agentId of agents.slice(0, 10)) await register(agentId);
      const first = world.newest;
      await coverage.ready();
      const readsAtStart = coverage.reads;
      const waits = agents.map((agentId, i) => barrier.waitFor(i < 10 ? agentId : null, first, 20_000));
      await Promise.resolve();
      expect(barrier.waiting).toBe(WAITERS);
      await runner.start();
      expect(await Promise.all(waits)).toEqual(agents.map(() => []));
      // More writes, more batches, more waiters: still no read (each advance came as a notice).
      for (const agentId of agents.slice(10, 30)) await register(agentId);
      const later = agents.slice(10, 30).map((agentId) => barrier.waitFor(agentId, world.newest, 20_000));
      expect(await Promise.all(later)).toEqual(later.map(() => []));
      expect(coverage.reads).toBe(readsAtStart);
    });

    it("holds a parked agent's reads at or past its letter (not another agent's), until the letter is skipped", async () => {
      await register('p-held');
      await register('p-other');
      const revision = await world.store.streamRevision(agentStream('p-held'));
      const { position } = await world.store.appendToStream(
        agentStream('p-held'),
        [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
        revision!,
      );
      await runner.waitFor(position);
      // The notice of the batch that parked it made the coverage read the parked agents once.
      expect(await barrier.waitFor('p-held', position, 1_000)).toEqual([
        {
          projection: READ_MODELS_PROJECTION,
          checkpoint: expect.any(String),
          reason: 'agent_parked',
          parked_at: position.toString(),
        },
      ]);
      expect(await barrier.waitFor('p-held', position - 1n, 1_000)).toEqual([]);
      expect(await barrier.waitFor('p-other', position, 1_000)).toEqual([]);
      expect(await barrier.waitFor(null, position, 1_000)).toEqual([]);
      const held = barrier.waitFor('p-held', position, 20_000);
      await runner.resolve(position, 'skip', 'spec', 'a poison event of the spec');
      expect(await held).toEqual([]);
    });

    it('gives up after the bound with the lags: the checkpoint behind the position', async () => {
      const ahead = world.newest + 1_000n;
      expect(await barrier.waitFor(null, ahead, 50)).toEqual([
        { projection: READ_MODELS_PROJECTION, checkpoint: expect.any(String), reason: 'behind', parked_at: null },
      ]);
      expect(barrier.waiting).toBe(0);
    });
  });

  describe('on the runner of this process (RunnerCoverage)', () => {
    it("is woken by the runner's progress (its checkpoint's moves, in memory)", async () => {
      const barrier = new ReadBarrier(new RunnerCoverage([runner]), [READ_MODELS_PROJECTION]);
      await runner.stop();
      await register('r-1');
      const wait = barrier.waitFor('r-1', world.newest, 20_000);
      expect(await barrier.waitFor('r-1', world.newest, 20)).toHaveLength(1);
      await runner.start();
      expect(await wait).toEqual([]);
      await barrier.close();
    });
  });
});
