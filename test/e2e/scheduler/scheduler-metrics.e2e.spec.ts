import type { Pool } from 'pg';
import type { AgentCommand, AgentEvent, AgentState } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { AgentCommandService, AgentRepository, type CommandEnvelope, SchedulerStepService } from '@app/application';
import { AGENT_STREAM_PREFIX, agentStateDecider } from '@app/core';
import { openTestEventStore } from '@app/event-store/testing';
import { FixedClock, PrometheusMetrics } from '@app/platform';
import { PostgresSnapshotStore } from '@app/read-models';
import { freshId, isolatedDatabaseUrl, testPool } from '../../support/postgres';

/** What the real scheduler step reports (ADR 0032): decisions by kind, lease expiries, timer lateness. */
describe('the scheduler step reports to the metrics', () => {
  let pool: Pool;
  let store: EventStore;
  beforeAll(async () => {
    const url = await isolatedDatabaseUrl('sched_metrics');
    pool = await testPool(4, url);
    store = await openTestEventStore(pool, url, [AGENT_STREAM_PREFIX]);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
  });

  const sample = async (metrics: PrometheusMetrics, line: string) => {
    const text = await metrics.exposition();
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    return found === undefined ? 0 : Number(found.slice(line.length + 1));
  };

  it('counts a decision by kind, a turn lease it expired, and how late a timer fired', async () => {
    const agent = freshId('sched-metrics');
    const clock = new FixedClock(new Date('2026-01-01T00:00:00.000Z'));
    const metrics = new PrometheusMetrics();
    const repository = new AgentRepository<AgentState, AgentEvent>(
      store,
      new PostgresSnapshotStore(pool),
      agentStateDecider,
      { metrics },
    );
    const commands = new AgentCommandService(repository, clock);
    const steps = new SchedulerStepService(commands, clock, metrics);
    const envelope = (): CommandEnvelope => ({
      agentId: agent,
      caller: { tokenName: 'host', agents: [agent], admin: false },
    });
    const send = async (command: Omit<AgentCommand, 'meta'>) => {
      const e = envelope();
      await commands.run(e, { ...command, meta: commands.meta(e) } as AgentCommand, () => ({}));
    };
    await send({ type: 'RegisterAgent', data: { agent_id: agent } });
    await send({
      type: 'EnqueueMessage',
      data: { message_id: 'm-1', kind: 'operator_prompt', body: 'hello', authority: 'operator_instruction' },
    });
    const started = await steps.step(agent, { activation: { envelope: envelope(), lease_ttl_ms: 1_000 } });
    expect(started!.decision.kind).toBe('StartModelTurn');
    expect(await sample(metrics, 'agent_runtime_scheduler_decisions_total{kind="StartModelTurn"}')).toBe(1);

    clock.advance(5_000);
    await steps.settle(agent);
    expect(await sample(metrics, 'agent_runtime_lease_expiries_total{kind="turn"}')).toBe(1);

    await send({ type: 'CreateTimer', data: { timer_id: 'tm-1', duration_ms: 1_000 } });
    clock.advance(3_500);
    await steps.settle(agent);
    expect(await sample(metrics, 'agent_runtime_timer_lateness_seconds_count')).toBe(1);
    expect(await sample(metrics, 'agent_runtime_timer_lateness_seconds_sum')).toBe(2.5);
    expect(await sample(metrics, 'agent_runtime_append_duration_seconds_count')).toBeGreaterThan(3);
  });
});
