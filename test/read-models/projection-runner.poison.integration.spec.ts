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
  READ_MODEL_PROJECTORS,
  type ProjectionRunnerOptions,
} from '@app/read-models';
import { isolatedDatabaseUrl, testPool, testStore } from '../support/postgres';

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

  it('parks the agent of an unknown type with a dead letter, never skips it, and lets every other agent go on', async () => {
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
      // ADR 0015: the checkpoint moves on; only the poisoned agent waits.
      await projection.waitFor(after.position!, 5_000);
      expect(projection.checkpoint).toBe(after.position!);
      expect(projection.stalled).toMatchObject({
        position: at,
        type: 'FromTheFuture',
        error: expect.stringContaining('unknown event type'),
      });
      expect(projection.parkedAgents).toMatchObject([{ agent_id: agent, letter_position: at, from_revision: 2n }]);
      expect(await agentRow(agent)).toBe('1');
      expect(await agentRow(healthy)).toBe('1');
      const [letter] = await letters();
      expect(letter).toMatchObject({
        position: at.toString(),
        event_type: 'FromTheFuture',
        attempts: 1,
        resolved_at: null,
      });
      // Not a hot loop: nothing retries it behind the operator's back (a retry or a skip resolves it).
      // Time-based on purpose: the claim is that no attempt happens over 1 s of a running runner.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await letters())[0].attempts).toBe(1);
      const [status] = (await projectionStatus(pool, store)).filter((s) => s.name === 'poison');
      expect(status).toMatchObject({
        status: 'stalled',
        checkpoint: after.position!.toString(),
        stalled_at: { position: at.toString(), stream: agentStream(agent), revision: '2' },
      });
    } finally {
      await projection.stop();
    }

    // A deployment that knows the type: a retry applies it and resolves the letter in the same transaction.
    const fixed = runner({ isKnownEventType: (type) => type === 'FromTheFuture' || isKnownAgentEventType(type) });
    await fixed.start();
    try {
      expect(await fixed.resolve(at, 'retry', 'test')).toMatchObject({ outcome: 'applied', parked_at: null });
      expect(fixed.stalled).toBeNull();
      expect(fixed.parkedAgents).toEqual([]);
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
  ])('parks its agent on %s', async (_what, event, message) => {
    const agent = `poison-c-${seq}`;
    await register(agent);
    const at = await poison(agent, event);
    const projection = runner();
    await projection.start();
    try {
      await projection.waitFor(at, 5_000);
      expect(projection.checkpoint).toBe(at);
      expect(projection.stalled?.error).toContain(message);
      expect(projection.parkedAgents.map((p) => p.agent_id)).toEqual([agent]);
    } finally {
      await projection.stop();
    }
  });

  it('keeps the agent parked across a stop and a start, without a new attempt', async () => {
    const agent = `poison-e-${seq}`;
    await register(agent);
    const at = await poison(agent, {});
    const projection = runner({ stallRetryMs: { first: 60_000, max: 60_000 } });
    await projection.start();
    await projection.waitFor(at, 5_000);
    const stopping = Date.now();
    await projection.stop();
    expect(Date.now() - stopping).toBeLessThan(5_000);
    const later = await wake(agent);
    await projection.start();
    try {
      await projection.waitFor(later.position!, 5_000);
      expect(projection.parkedAgents.map((p) => p.agent_id)).toEqual([agent]);
      expect(await agentRow(agent)).toBe('0');
      expect((await letters())[0].attempts).toBe(1);
    } finally {
      await projection.stop();
    }
  });

  it('parks the agent of a poison event again in a rebuild, which goes on to the head', async () => {
    const agent = `poison-d-${seq}`;
    const other = `poison-f-${seq}`;
    await register(agent);
    const at = await poison(agent, { type: 'AlsoFromTheFuture' });
    await register(other);
    const last = await wake(other);
    const projection = runner();
    await expect(projection.rebuild()).resolves.toBeGreaterThanOrEqual(3);
    expect(projection.checkpoint).toBe(last.position!);
    expect(await agentRow(agent)).toBe('0');
    expect(await agentRow(other)).toBe('1');
    expect(projection.parkedAgents).toMatchObject([{ agent_id: agent, letter_position: at }]);
    await projection.rebuild();
    expect((await letters())[0]).toMatchObject({ position: at.toString(), attempts: 2, resolved_at: null });
    expect(projection.parkedAgents.map((p) => p.agent_id)).toEqual([agent]);
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
