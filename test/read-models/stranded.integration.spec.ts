import { DEFAULT_STRANDED_THRESHOLDS, type StrandedThresholds } from '@app/domain';
import { createProjectionRunner, StrandedQueries } from '@app/read-models';
import { type Build, planArtifact, ProjectionHarness } from './support/projection-harness';

// The stranded-work read model (migration 0017, ADR 0036): the projector keeps each agent's
// watches, the queries compare them with the reader's clock and thresholds.

const T: StrandedThresholds = { ...DEFAULT_STRANDED_THRESHOLDS, runnable_after_ms: 60_000, overdue_grace_ms: 30_000 };
const ALL = { all: true } as const;

const register =
  (agentId: string): Build =>
  (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta });

/** agent-a: a prompt nobody decides on, and an item blocked with no wait and no recheck. */
const stuck: Build[] = [
  register('agent-a'),
  (meta) => ({
    type: 'EnqueueMessage',
    data: { message_id: 'm-1', kind: 'operator_prompt', body: 'go', authority: 'operator_instruction' },
    meta,
  }),
  (meta) => ({
    type: 'CreateWorkItem',
    data: { work_item_id: 'w-1', objective: 'one', plan_artifact: planArtifact('w-1') },
    meta,
  }),
  (meta) => ({ type: 'UpdateWorkItem', data: { work_item_id: 'w-1', blocked_by: 'review' }, meta }),
];
/** agent-b: a timer due at 00:10. */
const timer: Build[] = [
  register('agent-b'),
  (meta) => ({ type: 'CreateTimer', data: { timer_id: 'tm-1', fire_at: '2026-01-01T00:10:00.000Z' }, meta }),
];

describe('the stranded-work read model', () => {
  let world: ProjectionHarness;
  let queries: StrandedQueries;

  beforeAll(async () => {
    world = await ProjectionHarness.open('stranded');
    await world.run('agent-a', stuck);
    await world.run('agent-b', timer);
    await world.project();
    queries = new StrandedQueries(world.pool);
  });
  afterAll(() => world?.close());

  it('keeps one row per agent with its watches and the soonest instant one counts from', async () => {
    const { rows } = await world.pool.query(
      'SELECT agent_id, jsonb_array_length(watches) AS n, earliest_since FROM stranded_work ORDER BY 1',
    );
    expect(rows.map((r) => [r.agent_id, r.n])).toEqual([
      ['agent-a', 2],
      ['agent-b', 1],
    ]);
    expect(rows[1].earliest_since.toISOString()).toBe('2026-01-01T00:10:00.000Z');
  });

  it('lists what is stranded at the reader clock, oldest first, with evidence and age; nothing before its delay', async () => {
    expect(await queries.list({ scope: ALL, now: '2026-01-01T00:00:30.000Z', thresholds: T })).toMatchObject({
      total: 1,
      items: [{ agent_id: 'agent-a', kind: 'blocked_without_wait', subject: { work_item_id: 'w-1' } }],
    });
    const later = await queries.list({ scope: ALL, now: '2026-01-01T00:11:00.000Z', thresholds: T });
    expect(later.items.map((e) => [e.agent_id, e.kind])).toEqual([
      ['agent-a', 'blocked_without_wait'],
      ['agent-a', 'runnable_without_decision'],
      ['agent-b', 'timer_overdue'],
    ]);
    expect(later.items[2]).toMatchObject({
      since: '2026-01-01T00:10:00.000Z',
      stranded_at: '2026-01-01T00:10:30.000Z',
      age_ms: 30_000,
      evidence: ['fire_at:2026-01-01T00:10:00.000Z'],
    });
  });

  it('filters by kind and by the agents of the scope, and pages with total', async () => {
    const now = '2026-01-01T00:11:00.000Z';
    const scoped = await queries.list({ scope: { all: false, agent_ids: ['agent-b'] }, now, thresholds: T });
    expect(scoped.items.map((e) => e.agent_id)).toEqual(['agent-b']);
    const kind = await queries.list({ scope: ALL, now, thresholds: T, kind: 'timer_overdue' });
    expect(kind.items.map((e) => e.kind)).toEqual(['timer_overdue']);
    expect(await queries.list({ scope: ALL, now, thresholds: T, limit: 1 })).toMatchObject({ total: 3 });
    expect((await queries.list({ scope: ALL, now, thresholds: T, limit: 1 })).items).toHaveLength(1);
    expect(await queries.countByKind(now, T)).toMatchObject({
      blocked_without_wait: 1,
      runnable_without_decision: 1,
      timer_overdue: 1,
      turn_past_lease: 0,
    });
  });

  it('a threshold change applies at the next query (the rows hold no threshold)', async () => {
    const slow = { ...T, overdue_grace_ms: 3_600_000, runnable_after_ms: 3_600_000 };
    const kinds = (await queries.list({ scope: ALL, now: '2026-01-01T00:11:00.000Z', thresholds: slow })).items;
    expect(kinds.map((e) => e.kind)).toEqual(['blocked_without_wait']);
  });

  it('reports a delegation watch while the counterpart row lacks the record, not once it has it', async () => {
    const watch = {
      kind: 'delegation_counterpart_missing',
      subject: { delegation_id: 'dlg-x' },
      evidence: ['flag:counterpart_missing'],
      since: '2026-01-01T00:00:00.000Z',
      counterpart: { agent_id: 'child-x', delegation_id: 'dlg-x', requires: 'record' },
    };
    await world.pool.query(
      `INSERT INTO stranded_work (agent_id, watches, delegations, earliest_since, last_position)
       VALUES ('parent-x', $1, '{"dlg-x":"open"}', '2026-01-01T00:00:00Z', 0)`,
      [JSON.stringify([watch])],
    );
    const now = '2026-01-01T01:00:00.000Z';
    const kind = 'delegation_counterpart_missing' as const;
    expect((await queries.list({ scope: ALL, now, thresholds: T, kind })).total).toBe(1);
    await world.pool.query(
      `INSERT INTO stranded_work (agent_id, watches, delegations, earliest_since, last_position)
       VALUES ('child-x', '[]', '{"dlg-x":"open"}', NULL, 0)`,
    );
    expect((await queries.list({ scope: ALL, now, thresholds: T, kind })).total).toBe(0);
    await world.pool.query("DELETE FROM stranded_work WHERE agent_id IN ('parent-x', 'child-x')");
  });

  it('rebuilds from position 0 to exactly the live rows', async () => {
    const live = await world.dump(['stranded_work'], '1');
    expect(await createProjectionRunner(world.pool, world.store).rebuild()).toBe(world.events);
    expect(await world.dump(['stranded_work'], '1')).toEqual(live);
  });
});
