import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import type { EventStore, EventToAppend } from '@app/event-store';
import { AgentRepository, projectionStatus } from '@app/application';
import { domainEventTypes } from '@app/application/testing';
import { agentStateDecider, agentStream } from '@app/core';
import {
  isKnownAgentEventType,
  isRowRefusal,
  PostgresSnapshotStore,
  ProjectionRunner,
  ProjectionStalledError,
  READ_MODEL_PROJECTORS,
  type ProjectionRunnerOptions,
} from '@app/read-models';
import { isolatedDatabaseUrl, testPool, testStore } from '../support/postgres';
import { eventually } from '@app/event-store/testing';

const silent = () => undefined;

describe('a projection runner meeting a poison event', () => {
  let pool: Pool;
  let store: EventStore;
  let repository: AgentRepository<AgentState, AgentEvent>;
  let seq = 0;
  const runner = (options: ProjectionRunnerOptions = {}) =>
    new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
      name: 'poison',
      onError: silent,
      stallRetryMs: { first: 300, max: 300 },
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
  const plan = (id: string) => ({
    path: `/h/a/work-items/${id}/plan.md`,
    relative_path: `work-items/${id}/plan.md`,
    hash: 'sha256:0',
    byte_size: 0,
    updated_at: '2026-01-01T00:00:00.000Z',
    preview: '',
    preview_complete: true,
  });
  const wake = (agentId: string) =>
    run(agentId, (meta) => ({
      type: 'CreateWorkItem',
      data: { work_item_id: `w-${seq}`, objective: 'o', plan_artifact: plan(`w-${seq}`) },
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
  const agentRow = async (agentId: string) =>
    (await pool.query('SELECT revision::text FROM agents WHERE agent_id = $1', [agentId])).rows[0]?.revision ?? null;
  const letters = async () =>
    (
      await pool.query(
        "SELECT position::text, event_type, attempts, resolved_at FROM projection_dead_letters WHERE projection = 'poison' ORDER BY position",
      )
    ).rows;

  // Every case in a schema of its own: a poison event stays in the log for good.
  beforeEach(async () => {
    pool = await testPool(10, await isolatedDatabaseUrl('poison'));
    store = await testStore(pool);
    repository = new AgentRepository(store, new PostgresSnapshotStore(pool), agentStateDecider);
  });
  afterEach(async () => {
    await store.close();
    await pool.end();
  });

  it('knows every event type of the domain (only unknown types are poison)', () => {
    expect(domainEventTypes().filter((type) => !isKnownAgentEventType(type))).toEqual([]);
    expect(isKnownAgentEventType('FromTheFuture')).toBe(false);
  });

  it('applies what precedes an unknown type, stops there with a dead letter, retries slowly, and never skips it', async () => {
    const agent = `poison-a-${seq}`;
    const healthy = `poison-b-${seq}`;
    await register(agent);
    await wake(agent);
    const at = await poison(agent, {});
    await register(healthy);
    const after = await wake(healthy);
    const projection = runner();
    await projection.start();
    try {
      await expect(projection.waitFor(after.position!, 1500)).rejects.toThrow(`stalled at ${at}`);
      expect(projection.checkpoint).toBe(at - 1n);
      expect(projection.stalled).toMatchObject({
        position: at,
        type: 'FromTheFuture',
        error: expect.stringContaining('unknown event type'),
      });
      expect(await agentRow(agent)).toBe('1');
      expect(await agentRow(healthy)).toBeNull();
      const [letter] = await letters();
      expect(letter).toMatchObject({ position: at.toString(), event_type: 'FromTheFuture', resolved_at: null });
      // It retries (a fixed deployment would move on), at the 300 ms retry delay: not a hot loop.
      const first = (
        await eventually(
          'a second attempt at the dead letter',
          async () => (await letters())[0],
          (row) => row.attempts >= 2,
          { timeoutMs: 5_000, intervalMs: 50 },
        )
      ).attempts;
      expect(first).toBeGreaterThanOrEqual(2);
      // Time-based on purpose: the claim is a rate (at most ~1 retry per 300 ms over 1 s); the runner's retry delay runs on real timers.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await letters())[0].attempts - first).toBeLessThanOrEqual(4);
      const [status] = (await projectionStatus(pool, store)).filter((s) => s.name === 'poison');
      expect(status).toMatchObject({
        status: 'stalled',
        checkpoint: (at - 1n).toString(),
        stalled_at: { position: at.toString(), stream: agentStream(agent), revision: '2' },
      });
    } finally {
      await projection.stop();
    }

    // A deployment that knows the type moves on and resolves the letter in the same transaction.
    const fixed = runner({ isKnownEventType: (type) => type === 'FromTheFuture' || isKnownAgentEventType(type) });
    await fixed.start();
    try {
      await fixed.waitFor(after.position!, 5000);
      expect(fixed.stalled).toBeNull();
      expect(await agentRow(agent)).toBe('2');
      expect(await agentRow(healthy)).toBe('1');
      expect((await letters())[0].resolved_at).not.toBeNull();
      const [status] = (await projectionStatus(pool, store)).filter((s) => s.name === 'poison');
      expect(status).toMatchObject({ status: 'ok', stalled_at: null });
    } finally {
      await fixed.stop();
    }
  });

  it.each([
    [
      'data that is not a JSON object',
      { type: 'WakeHintSubmitted', data: 'garbage' as unknown as Record<string, unknown> },
      'not a JSON object',
    ],
    [
      'a schema version newer than the code',
      { type: 'WakeHintSubmitted', data: {}, metadata: { schema_version: 99 } },
      'newer version',
    ],
    [
      'a known type whose data the fold cannot read',
      { type: 'WorkItemCreated', data: { work_item_id: 'w-x' } },
      'TypeError',
    ],
  ])('stalls on %s', async (_what, event, message) => {
    const agent = `poison-c-${seq}`;
    await register(agent);
    const at = await poison(agent, event);
    const projection = runner();
    await projection.start();
    try {
      await expect(projection.waitFor(at, 1000)).rejects.toThrow(`stalled at ${at}`);
      expect(projection.checkpoint).toBe(at - 1n);
      expect(projection.stalled?.error).toContain(message);
    } finally {
      await projection.stop();
    }
  });

  it('ends the pause before the next attempt at a stalled position as soon as it is stopped, and starts again after', async () => {
    const agent = `poison-e-${seq}`;
    await register(agent);
    const at = await poison(agent, {});
    const projection = runner({ stallRetryMs: { first: 60_000, max: 60_000 } });
    await projection.start();
    await expect(projection.waitFor(at, 1500)).rejects.toThrow(`stalled at ${at}`);
    const stopping = Date.now();
    await projection.stop();
    expect(Date.now() - stopping).toBeLessThan(5_000);
    // Started again, it attempts the position at once (a new loop, not the old pause).
    await projection.start();
    try {
      await eventually(
        'a second attempt at the dead letter',
        async () => (await letters())[0],
        (row) => row.attempts >= 2,
        { timeoutMs: 5_000, intervalMs: 50 },
      );
    } finally {
      await projection.stop();
    }
  });

  it('ends a rebuild at the poison event with ProjectionStalledError, leaving the models just before it', async () => {
    const agent = `poison-d-${seq}`;
    await register(agent);
    const at = await poison(agent, { type: 'AlsoFromTheFuture' });
    const projection = runner();
    await expect(projection.rebuild()).rejects.toBeInstanceOf(ProjectionStalledError);
    expect(projection.checkpoint).toBe(at - 1n);
    expect(await agentRow(agent)).toBe('0');
  });

  it('tells rows the database refuses from an outage', () => {
    expect(isRowRefusal(Object.assign(new Error('null value in column'), { code: '23502' }))).toBe(true);
    expect(isRowRefusal(Object.assign(new Error('invalid input syntax'), { code: '22P02' }))).toBe(true);
    expect(isRowRefusal(new TypeError('Do not know how to serialize a BigInt'))).toBe(true);
    expect(isRowRefusal(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(
      isRowRefusal(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
    ).toBe(false);
    expect(isRowRefusal(Object.assign(new Error('could not serialize access'), { code: '40001' }))).toBe(false);
    expect(isRowRefusal(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
