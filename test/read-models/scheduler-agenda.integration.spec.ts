import type { AgentCommand, AgentEvent } from '@app/domain';
import { at, cmd, history, streamOf, wcmd, workerStep } from '@app/domain/testing';
import { eventually } from '@app/event-store/testing';
import { initialAgentState } from '@app/domain';
import { type AgentOwnership, type SchedulerStepService, SchedulerWorker, type StepResult } from '@app/application';
import {
  type AgentOwnershipChange,
  createProjectionRunner,
  type LeaseAudit,
  PostgresAgentDirectory,
  shardKeyOf,
  shardOf,
} from '@app/read-models';
import { planArtifact, ProjectionHarness } from './support/projection-harness';

jest.setTimeout(60_000);

const NOW = at(60);
const iso = (ms: number) => new Date(ms).toISOString();

/** A life the way the runtime writes it: the commands, then the worker's steps at NOW until it rests. */
function settled(agentId: string, ...commands: AgentCommand[]): AgentEvent[] {
  let stream = streamOf(history([], cmd.register(agentId), ...commands));
  for (let i = 0; i < 16; i++) {
    const next = workerStep(stream, NOW);
    if (next.events.length === stream.events.length) break;
    stream = next;
  }
  return stream.events;
}

/** A step service that only counts: each evaluation leaves nothing on the agenda. */
function countingSteps() {
  const calls: string[] = [];
  const steps = {
    settle: async (agentId: string) => {
      calls.push(agentId);
      return { state: initialAgentState() } as StepResult;
    },
  } as unknown as SchedulerStepService;
  return { calls, steps };
}

const logger = { error: jest.fn(), info: jest.fn() };

describe('scheduler_agenda: the read model a starting scheduler reads instead of every agent (ADR 0038)', () => {
  let world: ProjectionHarness;
  const T = Date.now();

  beforeAll(async () => {
    world = await ProjectionHarness.open('sched_agenda');
    for (let i = 0; i < 20; i++) await world.record(`idle-${i}`, settled(`idle-${i}`));
    await world.record('fresh', history([], cmd.register('fresh'), cmd.create('w-1')));
    await world.record('overdue', settled('overdue', wcmd.createTimer('t-1', { fire_at: iso(T - 60_000) })));
    await world.record('soon', settled('soon', wcmd.createTimer('t-1', { fire_at: iso(T + 1_500) })));
    await world.record('later', settled('later', wcmd.createTimer('t-1', { fire_at: iso(T + 4_000) })));
    await world.record('far', settled('far', wcmd.createTimer('t-1', { fire_at: '2040-01-01T00:00:00.000Z' })));
    await world.project();
  });
  afterAll(() => world.close());

  const rows = async () =>
    (
      await world.pool.query<{ agent_id: string; next_due_at: Date | null; undecided: boolean; shard_key: string }>(
        'SELECT agent_id, next_due_at, undecided, shard_key::text FROM scheduler_agenda ORDER BY agent_id',
      )
    ).rows;

  it('given settled, fresh and timed agents, then each row holds its next deadline and whether the scheduler rested on it', async () => {
    const byId = new Map((await rows()).map((row) => [row.agent_id, row]));
    expect(byId.size).toBe(25);
    expect(byId.get('idle-0')).toMatchObject({ next_due_at: null, undecided: false });
    expect(byId.get('fresh')).toMatchObject({ next_due_at: null, undecided: true });
    expect(byId.get('soon')).toMatchObject({ next_due_at: new Date(T + 1_500), undecided: false });
    expect(byId.get('far')!.next_due_at).toEqual(new Date('2040-01-01T00:00:00.000Z'));
    expect(byId.get('soon')!.shard_key).toBe(String(shardKeyOf('soon')));
  });

  it('rebuilds from position 0 to exactly the live rows', async () => {
    const live = await rows();
    await createProjectionRunner(world.pool, world.store).rebuild();
    expect(await rows()).toEqual(live);
  });

  it('given a start, then only the undecided and due agents are evaluated; the deadlines within the horizon are armed, the later ones read as it moves', async () => {
    const { calls, steps } = countingSteps();
    // The worker's clock starts at T (when the timers were set), however long the set-up took.
    const shift = Date.now() - T;
    const worker = new SchedulerWorker(world.store, steps, new PostgresAgentDirectory(world.pool), logger, {
      horizonMs: 3_000,
      now: () => Date.now() - shift,
    });
    await worker.start();
    await worker.idle();
    try {
      expect([...calls].sort()).toEqual(['fresh', 'overdue']);
      // 'soon' is armed from the read model at start; 'later' is read when the horizon has moved past it.
      await eventually(
        'the armed and the later deadline fire',
        async () => [...calls].sort(),
        (c) => c.length === 4,
        {
          timeoutMs: 15_000,
        },
      );
      expect([...calls].sort()).toEqual(['fresh', 'later', 'overdue', 'soon']);
      expect(calls.filter((id) => id.startsWith('idle-') || id === 'far')).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});

/** Ownership by shard (4 shards), moved by the spec. */
class ShardsByHand implements AgentOwnership {
  held = new Set<number>();
  private listener?: (change: AgentOwnershipChange) => void;
  start = async () => undefined;
  stop = async () => undefined;
  leaseOf(agentId: string): LeaseAudit | null {
    const shard = shardOf(agentId, 4);
    return this.held.has(shard)
      ? { lease_group: 'scheduler', lease_shard: shard, lease_epoch: 1, lease_owner: 'me' }
      : null;
  }
  lapsed = () => false;
  heldShards = () => ({ count: 4, held: [...this.held].sort() });
  onChange(listener: (change: AgentOwnershipChange) => void): () => void {
    this.listener = listener;
    return () => (this.listener = undefined);
  }
  gain(shard: number): void {
    this.held.add(shard);
    this.listener?.({
      gained: (id) => shardOf(id, 4) === shard,
      lost: () => false,
      gainedAny: true,
      lostAny: false,
      gainedShards: [shard],
    });
  }
}

describe('the shard-takeover gap: a gained shard while the projector lags', () => {
  let world: ProjectionHarness;
  afterAll(() => world.close());

  it("given an agent's event the read model does not include yet, when its shard is gained, then the agent is evaluated", async () => {
    world = await ProjectionHarness.open('sched_takeover');
    const agents = Array.from({ length: 12 }, (_, i) => `agent-${i}`);
    for (const agentId of agents) await world.record(agentId, settled(agentId));
    await world.project();
    // Another replica holds shard s; the events below are written after the projector's last batch.
    const s = shardOf('agent-0', 4);
    const ownership = new ShardsByHand();
    for (let shard = 0; shard < 4; shard++) if (shard !== s) ownership.held.add(shard);
    const { calls, steps } = countingSteps();
    const worker = new SchedulerWorker(world.store, steps, new PostgresAgentDirectory(world.pool), logger, {
      ownership,
    });
    await worker.start();
    await worker.idle();
    expect(calls).toEqual([]);
    try {
      await world.run('agent-0', [
        (meta) => ({
          type: 'CreateWorkItem',
          data: { work_item_id: 'w-new', objective: 'new', plan_artifact: planArtifact('w-new') },
          meta,
        }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the worker's subscription drops the event: not its shard
      expect(calls).toEqual([]);
      // The projector has not applied it: the agent's row still says it is decided and due never.
      const row = await world.pool.query("SELECT undecided FROM scheduler_agenda WHERE agent_id = 'agent-0'");
      expect(row.rows).toEqual([{ undecided: false }]);
      ownership.gain(s);
      await eventually(
        'the gained agent is evaluated',
        async () => calls,
        (c) => c.includes('agent-0'),
        {
          timeoutMs: 10_000,
        },
      );
      await worker.idle();
      expect(calls.filter((id) => shardOf(id, 4) !== s)).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});
