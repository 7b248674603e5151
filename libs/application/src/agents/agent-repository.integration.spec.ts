import type { Pool } from 'pg';
import {
  type AgentCommand,
  type AgentEvent,
  type AgentState,
  decide,
  renderCreateWorkItemReply,
  type CreateWorkItem,
} from '@app/domain';
import { type EventStore, WrongExpectedRevisionError } from '@app/event-store';
import { PostgresSnapshotStore } from '@app/read-models';
import { freshId, testPool, testStore } from '@app/read-models/testing';
import { eventually } from '@app/event-store/testing';
import { AgentRepository } from './agent-repository';
import { agentStateDecider, agentStream, NO_METRICS } from '@app/core';

const NOW = '2026-01-01T00:00:00.000Z';
const plan = {
  path: '/h/a/work-items/w/plan.md',
  relative_path: 'work-items/w/plan.md',
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: NOW,
  preview: '',
  preview_complete: true,
};
const register = (agentId: string, commandId: string): AgentCommand => ({
  type: 'RegisterAgent',
  data: { agent_id: agentId },
  meta: { now: NOW, command_id: commandId },
});
const create = (id: string, commandId: string, objective = `objective ${id}`): CreateWorkItem => ({
  type: 'CreateWorkItem',
  data: { work_item_id: id, objective, plan_artifact: plan },
  meta: { now: NOW, command_id: commandId },
});

describe('AgentRepository on the Postgres event store', () => {
  let pool: Pool;
  let store: EventStore;
  let repository: AgentRepository<AgentState, AgentEvent>;
  const newRepository = (options = {}) =>
    new AgentRepository<AgentState, AgentEvent>(store, new PostgresSnapshotStore(pool), agentStateDecider, options);
  const ctx = (agentId: string, commandId: string, expectedRevision?: bigint) => ({
    agentId,
    commandId,
    actor: 'test',
    expectedRevision,
  });
  /** Snapshots are saved in the background: the one at `revision` (the last one due) once it is stored. */
  const snapshotAt = (agentId: string, revision: bigint) =>
    eventually(
      `the snapshot of ${agentId} at revision ${revision}`,
      () => new PostgresSnapshotStore(pool).load<AgentState>(agentId, agentStateDecider.stateVersion),
      (s) => s?.revision === revision,
    );

  beforeAll(async () => {
    pool = await testPool();
    store = await testStore(pool);
    repository = newRepository();
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  it('appends the decided events with command metadata and returns the new revision', async () => {
    const agentId = freshId('agent');
    const result = await repository.transact(ctx(agentId, 'c-1'), (s) => decide(register(agentId, 'c-1'), s));
    expect(result.revision).toBe(0n);
    expect(result.after.agent_id).toBe(agentId);
    const [stored] = await store.readStream(agentStream(agentId));
    expect(stored.type).toBe('AgentRegistered');
    expect(stored.metadata).toMatchObject({ command_id: 'c-1', actor: 'test', schema_version: 1 });
  });

  it('answers a repeated command id with the first result and appends nothing', async () => {
    const agentId = freshId('agent');
    await repository.transact(ctx(agentId, 'r'), (s) => decide(register(agentId, 'r'), s));
    const first = await repository.transact(ctx(agentId, 'c'), (s) => decide(create('w-1', 'c'), s));
    await repository.transact(ctx(agentId, 'd'), (s) => decide(create('w-2', 'd'), s));
    // A fresh repository (no cache) sees the command in the stream and replays the first result.
    const again = await newRepository().transact(ctx(agentId, 'c'), (s) => decide(create('w-1', 'c'), s));
    expect(again.repeated).toBe(true);
    expect(again.revision).toBe(first.revision);
    const render = (r: typeof first) => renderCreateWorkItemReply(create('w-1', 'c'), r.before, r.after, r.events);
    expect(render(again)).toEqual(render(first));
    expect(await store.readStream(agentStream(agentId))).toHaveLength(3);
  });

  it('refuses a stale expected revision with the current revision', async () => {
    const agentId = freshId('agent');
    await repository.transact(ctx(agentId, 'r'), (s) => decide(register(agentId, 'r'), s));
    await repository.transact(ctx(agentId, 'a'), (s) => decide(create('w-1', 'a'), s));
    const stale = repository.transact(ctx(agentId, 'b', 0n), (s) => decide(create('w-2', 'b'), s));
    await expect(stale).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await expect(stale).rejects.toMatchObject({ actual: 1n });
    expect(await store.readStream(agentStream(agentId))).toHaveLength(2);
  });

  it('retries on a concurrency conflict so concurrent commands on one agent all land', async () => {
    const agentId = freshId('agent');
    await repository.transact(ctx(agentId, 'r'), (s) => decide(register(agentId, 'r'), s));
    const writers = Array.from({ length: 6 }, () => newRepository({ maxRetries: 20 }));
    await Promise.all(writers.map((w) => w.load(agentId)));
    await Promise.all(
      writers.map((w, i) => w.transact(ctx(agentId, `c-${i}`), (s) => decide(create(`w-${i}`, `c-${i}`), s))),
    );
    const loaded = await newRepository().load(agentId);
    expect(loaded.state.work_items.keys().sort()).toEqual(['w-0', 'w-1', 'w-2', 'w-3', 'w-4', 'w-5']);
    expect(loaded.revision).toBe(6n);
  });

  it('loads from a snapshot plus the tail, equal to a full replay', async () => {
    const agentId = freshId('agent');
    const snapshotting = newRepository({ snapshotEvery: 3 });
    await snapshotting.transact(ctx(agentId, 'r'), (s) => decide(register(agentId, 'r'), s));
    for (let i = 0; i < 7; i++)
      await snapshotting.transact(ctx(agentId, `c-${i}`), (s) => decide(create(`w-${i}`, `c-${i}`), s));
    // Revisions 0..7, a snapshot every 3 events: at revisions 2 and 5.
    const snapshot = await snapshotAt(agentId, 5n);
    expect(snapshot).not.toBeNull();
    expect(snapshot!.revision).toBeLessThan(7n);
    const fromSnapshot = await newRepository().load(agentId);
    const events = await store.readStream(agentStream(agentId));
    const replayed = events.reduce(
      (s, e) => agentStateDecider.evolve(s, { type: e.type, data: e.data } as AgentEvent),
      agentStateDecider.initialState(agentId),
    );
    expect(fromSnapshot.state).toEqual(replayed);
    expect(fromSnapshot.revision).toBe(7n);
    expect(fromSnapshot.commands.has('c-0')).toBe(true);
  });

  it('writes the snapshots through the writer and counts them in the runtime metrics', async () => {
    const agentId = freshId('agent');
    const outcomes: string[] = [];
    const metrics = { ...NO_METRICS, agentSnapshot: (outcome: string) => outcomes.push(outcome) };
    const snapshotting = newRepository({ snapshotEvery: 2, metrics });
    await snapshotting.transact(ctx(agentId, 'r'), (s) => decide(register(agentId, 'r'), s));
    for (let i = 0; i < 3; i++)
      await snapshotting.transact(ctx(agentId, `c-${i}`), (s) => decide(create(`w-${i}`, `c-${i}`), s));
    // Revisions 0..3, a snapshot every 2 events: at revisions 1 and 3 (the first may be replaced while it waits).
    await snapshotAt(agentId, 3n);
    await snapshotting.snapshotWriter.idle();
    expect(outcomes.filter((o) => o === 'written').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.every((o) => o === 'written' || o === 'superseded')).toBe(true);
    expect(outcomes.length).toBe(2);
  });

  it('keeps the order of the records through a snapshot: the loaded state is the folded state, records in order', async () => {
    const agentId = freshId('agent');
    const snapshotting = newRepository({ snapshotEvery: 2 });
    await snapshotting.transact(ctx(agentId, 'r'), (s) => decide(register(agentId, 'r'), s));
    // Insertion order that neither byte order nor length-then-bytes order (jsonb's) gives back.
    const ids = ['w-zz-last-written-first', 'b', 'w-mid', 'a-long-one', 'c'];
    for (const [i, id] of ids.entries())
      await snapshotting.transact(ctx(agentId, `c-${i}`), (s) => decide(create(id, `c-${i}`), s));
    // Revisions 0..5, a snapshot every 2 events: at revisions 1, 3 and 5.
    const snapshot = await snapshotAt(agentId, 5n);
    expect(snapshot!.revision).toBeGreaterThanOrEqual(4n);
    const fromSnapshot = await newRepository().load(agentId);
    const events = await store.readStream(agentStream(agentId));
    const replayed = events.reduce(
      (s, e) => agentStateDecider.evolve(s, { type: e.type, data: e.data } as AgentEvent),
      agentStateDecider.initialState(agentId),
    );
    expect(fromSnapshot.state.work_items.keys()).toEqual(ids);
    expect(replayed.work_items.keys()).toEqual(ids);
    // Records compare entry by entry in order (RecordMap is iterable); the keys inside event data
    // may differ in order (the store keeps events as jsonb), which no reader sees.
    expect(fromSnapshot.state).toEqual(replayed);
  });

  it('ignores a snapshot of shape 10 (it kept processed bodies): the load folds the stream, which keeps them', async () => {
    const agentId = freshId('agent');
    const meta = (command_id: string) => ({ now: NOW, command_id });
    const commands: AgentCommand[] = [
      register(agentId, 'r'),
      {
        type: 'EnqueueMessage',
        data: { message_id: 'm-1', kind: 'operator_prompt', body: 'Fix it.', authority: 'operator_instruction' },
        meta: meta('e'),
      },
      { type: 'StartTurn', data: { turn_id: 't-1', message_id: 'm-1', lease_ttl_ms: 60_000 }, meta: meta('s') },
      { type: 'TurnTerminal', data: { turn_id: 't-1', terminal_kind: 'completed' }, meta: meta('t') },
    ];
    for (const command of commands)
      await repository.transact(ctx(agentId, command.meta.command_id), (s) => decide(command, s));
    const { state, revision } = await newRepository().load(agentId);
    const message = state.messages.get('m-1')!;
    expect(message).toMatchObject({ status: 'processed', body: null });
    const old = { ...state, messages: state.messages.set('m-1', { ...message, body: 'Fix it.' }) };
    await new PostgresSnapshotStore(pool).save<AgentState>({
      agent_id: agentId,
      revision: revision!,
      state_version: 10,
      state: old,
      commands: [],
    });
    const loaded = await newRepository().load(agentId);
    expect(loaded.state).toEqual(state);
    const [queued] = await newRepository().eventsAt(agentId, [BigInt(message.seq)]);
    expect(queued).toMatchObject({ type: 'MessageQueued', data: { message_id: 'm-1', body: 'Fix it.' } });
  });

  it('records nothing for a refused command', async () => {
    const agentId = freshId('agent');
    await repository.transact(ctx(agentId, 'r'), (s) => decide(register(agentId, 'r'), s));
    await expect(
      repository.transact(ctx(agentId, 'x'), (s) => decide(create('w-1', 'x', '   '), s)),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await store.readStream(agentStream(agentId))).toHaveLength(1);
  });
});
