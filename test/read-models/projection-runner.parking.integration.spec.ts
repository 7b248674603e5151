import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import type { EventStore, EventToAppend } from '@app/event-store';
import { AgentRepository, deadLettersOf } from '@app/application';
import { agentStateDecider, agentStream } from '@app/core';
import {
  isKnownAgentEventType,
  PostgresSnapshotStore,
  ProjectionRunner,
  READ_MODEL_PROJECTORS,
  type ProjectionRunnerOptions,
} from '@app/read-models';
import { isolatedDatabaseUrl, testPool, testStore } from '../support/postgres';

const silent = () => undefined;

/** ADR 0015: a poison event parks its agent only; a skip or a retry applies the agent's held events in order. */
describe('a poison event parks its agent only', () => {
  let pool: Pool;
  let store: EventStore;
  let repository: AgentRepository<AgentState, AgentEvent>;
  let seq = 0;
  const runner = (options: ProjectionRunnerOptions = {}) =>
    new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
      name: 'parking',
      onError: silent,
      ...options,
    });
  const run = async (agentId: string, build: (meta: { now: string; command_id: string }) => AgentCommand) => {
    seq += 1;
    const command = build({ now: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), command_id: `c-${seq}` });
    return repository.transact({ agentId, commandId: command.meta.command_id, actor: 'test' }, (s) =>
      decide(command, s),
    );
  };
  const register = (agentId: string) =>
    run(agentId, (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
  const workItem = (agentId: string, id: string) =>
    run(agentId, (meta) => ({
      type: 'CreateWorkItem',
      data: {
        work_item_id: id,
        objective: `objective of ${id}`,
        plan_artifact: {
          path: `/h/a/work-items/${id}/plan.md`,
          relative_path: `work-items/${id}/plan.md`,
          hash: 'sha256:0',
          byte_size: 0,
          updated_at: '2026-01-01T00:00:00.000Z',
          preview: '',
          preview_complete: true,
        },
      },
      meta,
    }));
  const poison = async (agentId: string, event: Partial<EventToAppend>) => {
    const revision = await store.streamRevision(agentStream(agentId));
    const appended = await store.appendToStream(
      agentStream(agentId),
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {}, ...event }],
      revision ?? 'no_stream',
    );
    return appended.position;
  };
  /** A timer whose date Postgres refuses (the fold keeps the string; the timers row is refused). */
  const impossibleTimer = (agentId: string) => ({
    type: 'TimerCreated',
    data: {
      agent_id: agentId,
      timer_id: 'tm-bad',
      fire_at: '2021-02-30T00:00:00Z',
      interval_ms: null,
      work_item_id: null,
      resume_text: null,
      intent_id: null,
      at: '2026-01-01T00:00:00.000Z',
    },
  });
  const agentRow = async (agentId: string) =>
    (await pool.query('SELECT revision::text FROM agents WHERE agent_id = $1', [agentId])).rows[0]?.revision ?? null;
  const workItems = async (agentId: string) =>
    (await pool.query('SELECT id FROM work_items WHERE agent_id = $1 ORDER BY last_position', [agentId])).rows.map(
      (r) => r.id,
    );

  beforeEach(async () => {
    pool = await testPool(10, await isolatedDatabaseUrl('parking'));
    store = await testStore(pool);
    repository = new AgentRepository(store, new PostgresSnapshotStore(pool), agentStateDecider);
  });
  afterEach(async () => {
    await store.close();
    await pool.end();
  });

  it('a row the database refuses parks its agent, the others go on; a skip (audited) applies the held events in order', async () => {
    const [parked, other] = [`park-a-${seq}`, `park-b-${seq}`];
    await register(parked);
    await register(other);
    const at = await poison(parked, impossibleTimer(parked));
    await workItem(parked, 'w-1');
    await workItem(other, 'w-b');
    const held = await workItem(parked, 'w-2');
    const last = await workItem(other, 'w-c');
    const projection = runner();
    await projection.start();
    try {
      // The checkpoint moves past the poison event: the other agent's later events are applied.
      await projection.waitFor(last.position!, 5_000);
      expect(await workItems(other)).toEqual(['w-b', 'w-c']);
      // The parked agent stops just before it: its later events are held, not applied and not skipped.
      expect(await agentRow(parked)).toBe('0');
      expect(await workItems(parked)).toEqual([]);
      const before = await deadLettersOf(pool, 'parking');
      expect(before.letters).toMatchObject([
        { position: at.toString(), stream: agentStream(parked), type: 'TimerCreated', state: 'open', attempts: 1 },
      ]);
      expect(before.letters[0].error).toMatch(/date|time/i);
      expect(before.parked_agents).toMatchObject([
        { agent_id: parked, letter_position: at.toString(), from_revision: '1' },
      ]);
      expect(projection.stalled).toMatchObject({ position: at });

      const result = await projection.resolve(at, 'skip', 'ops-token', 'impossible date, fixed upstream');
      expect(result).toMatchObject({ outcome: 'skipped', held_applied: 2, parked_at: null, actor: 'ops-token' });
      expect(await workItems(parked)).toEqual(['w-1', 'w-2']);
      expect(await agentRow(parked)).toBe(held.revision!.toString());
      expect((await pool.query("SELECT count(*)::int AS n FROM timers WHERE id = 'tm-bad'")).rows[0].n).toBe(0);
      const after = await deadLettersOf(pool, 'parking');
      expect(after.parked_agents).toEqual([]);
      expect(after.letters[0]).toMatchObject({
        state: 'skipped',
        resolved_by: 'ops-token',
        reason: 'impossible date, fixed upstream',
        actions: [
          { action: 'skip', actor: 'ops-token', outcome: 'skipped', reason: 'impossible date, fixed upstream' },
        ],
      });
      expect(projection.stalled).toBeNull();

      // The running runner takes the agent's next events live again.
      const next = await workItem(parked, 'w-3');
      await projection.waitFor(next.position!, 5_000);
      expect(await workItems(parked)).toEqual(['w-1', 'w-2', 'w-3']);
      // A second skip of the same letter is refused.
      await expect(projection.resolve(at, 'skip', 'ops-token', 'again')).rejects.toMatchObject({ reason: 'resolved' });
    } finally {
      await projection.stop();
    }

    // A rebuild skips the skipped letter again: same rows, nobody parked.
    const rebuilt = runner();
    await rebuilt.rebuild();
    expect(await workItems(parked)).toEqual(['w-1', 'w-2', 'w-3']);
    expect((await deadLettersOf(pool, 'parking')).parked_agents).toEqual([]);
  });

  it('an unknown type parks its agent; a failed retry keeps it parked (attempts counted), one that now succeeds applies it and the held events', async () => {
    const [parked, other] = [`park-c-${seq}`, `park-d-${seq}`];
    await register(parked);
    const at = await poison(parked, { type: 'FromTheFuture', data: { note: 'a newer runtime' } });
    await workItem(parked, 'w-1');
    await register(other);
    const last = await workItem(other, 'w-b');
    const projection = runner();
    await projection.start();
    try {
      await projection.waitFor(last.position!, 5_000);
      expect(await workItems(other)).toEqual(['w-b']);
      expect(await workItems(parked)).toEqual([]);
      const failed = await projection.resolve(at, 'retry', 'ops-token', null);
      expect(failed).toMatchObject({ outcome: 'failed', held_applied: 0, parked_at: { position: at.toString() } });
      expect(failed.parked_at!.error).toContain('unknown event type');
      const letters = await deadLettersOf(pool, 'parking');
      expect(letters.letters[0]).toMatchObject({ state: 'open', attempts: 2 });
      expect(letters.letters[0].actions).toMatchObject([{ action: 'retry', actor: 'ops-token', outcome: 'failed' }]);
      expect(letters.parked_agents).toHaveLength(1);
    } finally {
      await projection.stop();
    }

    // A deployment that knows the type: the retry applies the letter, then the held events.
    const fixed = runner({ isKnownEventType: (type) => type === 'FromTheFuture' || isKnownAgentEventType(type) });
    await fixed.start();
    try {
      const result = await fixed.resolve(at, 'retry', 'ops-token', 'deployed 1.2');
      expect(result).toMatchObject({ outcome: 'applied', held_applied: 1, parked_at: null });
      expect(await workItems(parked)).toEqual(['w-1']);
      expect(await agentRow(parked)).toBe('2');
      const next = await workItem(parked, 'w-2');
      await fixed.waitFor(next.position!, 5_000);
      expect(await workItems(parked)).toEqual(['w-1', 'w-2']);
      expect((await deadLettersOf(pool, 'parking')).letters[0]).toMatchObject({
        state: 'applied',
        resolved_by: 'ops-token',
      });
    } finally {
      await fixed.stop();
    }
  });

  it('keeps an agent parked across restarts and in a second runner, holding its events until the letter is resolved', async () => {
    const agent = `park-e-${seq}`;
    await register(agent);
    const at = await poison(agent, {});
    const first = runner();
    await first.start();
    await first.waitFor(at, 5_000);
    await first.stop();
    const later = await workItem(agent, 'w-1');
    const second = runner();
    await second.start();
    try {
      await second.waitFor(later.position!, 5_000);
      expect(await workItems(agent)).toEqual([]);
      expect(second.parkedAgents.map((p) => p.agent_id)).toEqual([agent]);
      await expect(second.resolve(at + 1000n, 'skip', 'ops', 'x')).rejects.toMatchObject({ reason: 'not_found' });
      // Resolved by another runner object (another process): this one sees the parked agents changed.
      expect(await first.resolve(at, 'skip', 'ops', 'tool wrote it')).toMatchObject({ held_applied: 1 });
      const next = await workItem(agent, 'w-2');
      await second.waitFor(next.position!, 5_000);
      expect(await workItems(agent)).toEqual(['w-1', 'w-2']);
    } finally {
      await second.stop();
    }
  });
});
