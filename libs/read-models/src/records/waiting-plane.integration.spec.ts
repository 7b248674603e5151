import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { AgentRepository } from '@app/application/agents/agent-repository';
import { agentStateDecider } from '@app/application/agents/agent-state-decider';
import { isolatedDatabaseUrl, testPool, testStore } from '../../../../test/support/postgres';
import { PostgresSnapshotStore } from '../snapshots/postgres-snapshot-store';
import { createProjectionRunner } from '../read-models.module';
import { RecordQueries } from './record-queries';

const plan = (id: string) => ({
  path: `/h/a/work-items/${id}/plan.md`, relative_path: `work-items/${id}/plan.md`, hash: 'sha256:0', byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z', preview: '', preview_complete: true,
});
const TABLES = ['waiting_intents', 'tasks', 'timers', 'messages'];
const HASH = 'sha256:feedface';

type Meta = { now: string; command_id: string };
type Build = (meta: Meta) => AgentCommand;

/** Every waiting-plane record kind, in every status the API can reach. */
function waitingPlaneScript(agentId: string): Build[] {
  const wait = (data: Record<string, unknown>): Build => (meta) => ({ type: 'WaitFor', data, meta } as AgentCommand);
  return [
    (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }),
    (meta) => ({ type: 'CreateWorkItem', data: { work_item_id: 'w-1', objective: 'one', plan_artifact: plan('w-1') }, meta }),
    (meta) => ({ type: 'CreateWorkItem', data: { work_item_id: 'w-2', objective: 'two', plan_artifact: plan('w-2') }, meta }),
    (meta) => ({ type: 'CreateTask', data: { task_id: 't-1', kind: 'build', wait_policy: 'blocking', work_item_id: 'w-2' }, meta }),
    wait({ scope: 'work_item', work_item_id: 'w-1', intent_id: 'i-ext', wake: 'external', reason: 'the deploy hook', resource: 'ci', callback_token_hash: HASH }),
    wait({ scope: 'work_item', work_item_id: 'w-2', intent_id: 'i-task', wake: 'task_result', reason: 'the build', resource: 't-1' }),
    wait({ scope: 'agent', intent_id: 'i-timer', wake: 'timer', reason: 'check later', fire_at: '2026-01-02T00:00:00.000Z', timer_id: 'tm-wait' }),
    (meta) => ({ type: 'TriggerWaitingIntent', data: { intent_id: 'i-ext', source: 'ci', via: 'callback', message_id: 'm-hint' }, meta }),
    (meta) => ({ type: 'EnqueueMessage', data: { message_id: 'm-bg', kind: 'operator_prompt', body: 'later', priority: 'background', authority: 'operator_instruction' }, meta }),
    (meta) => ({ type: 'EnqueueMessage', data: { message_id: 'm-now', kind: 'operator_prompt', body: { ask: 'now' }, priority: 'interject', authority: 'operator_instruction' }, meta }),
    (meta) => ({ type: 'EnqueueMessage', data: { message_id: 'm-drop', kind: 'webhook_event', body: 'noise', authority: 'operator_instruction' }, meta }),
    (meta) => ({ type: 'DropMessage', data: { message_id: 'm-drop' }, meta }),
    (meta) => ({ type: 'UpdateTaskStatus', data: { task_id: 't-1', status: 'completed', detail: 'green', message_id: 'm-result' }, meta }),
    (meta) => ({ type: 'CreateTimer', data: { timer_id: 'tm-1', duration_ms: 60_000, interval_ms: 60_000 }, meta }),
    (meta) => ({ type: 'CancelTimer', data: { timer_id: 'tm-wait' }, meta }),
    (meta) => ({ type: 'Control', data: { action: 'pause' }, meta }),
  ];
}

describe('the waiting-plane read models (waiting intents, tasks, timers, messages)', () => {
  let pool: Pool;
  let store: EventStore;
  let repository: AgentRepository<AgentState, AgentEvent>;
  let seq = 0;
  let newest = -1n;
  let events = 0;

  const seed = async (agentId: string) => {
    for (const build of waitingPlaneScript(agentId)) {
      seq += 1;
      const command = build({ now: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), command_id: `c-${seq}` });
      const result = await repository.transact({ agentId, commandId: command.meta.command_id, actor: 'test' }, (s) => decide(command, s));
      events += result.events.length;
      if (result.position !== null && result.position > newest) newest = result.position;
    }
  };
  const dump = async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of TABLES) out[table] = (await pool.query(`SELECT * FROM ${table} ORDER BY agent_id, id`)).rows;
    return out;
  };
  const project = async () => {
    const runner = createProjectionRunner(pool, store);
    await runner.start();
    await runner.waitFor(newest);
    await runner.stop();
  };

  beforeAll(async () => {
    pool = await testPool(10, await isolatedDatabaseUrl('records'));
    store = await testStore(pool);
    repository = new AgentRepository(store, new PostgresSnapshotStore(pool), agentStateDecider);
    await seed('agent-a');
    await seed('agent-b');
    await project();
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  it('projects the views the domain derives, in the domain list orders', async () => {
    const queries = new RecordQueries(pool);
    const intents = await queries.waitingIntents('agent-a', {});
    expect(intents.items.map((i) => [i.id, i.status, i.trigger_count])).toEqual([
      ['i-timer', 'cancelled', 0], ['i-task', 'resolved', 0], ['i-ext', 'active', 1],
    ]);
    expect(intents.items[2]).toMatchObject({ has_callback_token: true, triggered: true, last_trigger: { via: 'callback' } });
    expect(await queries.waitingIntents('agent-a', { status: 'active', work_item_id: 'w-1' })).toMatchObject({ total: 1 });
    expect(await queries.tasks('agent-a', { filter: 'terminal' })).toMatchObject({ total: 1, items: [{ id: 't-1', status: 'completed', terminal: true }] });
    const timers = await queries.timers('agent-a', { now: '2030-01-01T00:00:00.000Z' });
    expect(timers.items.map((t) => [t.id, t.status, t.due])).toEqual([['tm-1', 'scheduled', true], ['tm-wait', 'cancelled', false]]);
    const queue = await queries.messages('agent-a', {});
    expect(queue.items.map((m) => m.id)).toEqual(['m-now', 'm-hint', 'm-result', 'm-bg']);
    expect((await queries.messages('agent-a', { status: 'dropped' })).items).toMatchObject([{ id: 'm-drop', status: 'dropped' }]);
  });

  it('never stores the callback token hash in a row', async () => {
    expect(JSON.stringify(await dump())).not.toContain(HASH);
  });

  it('changes nothing when every event is delivered again', async () => {
    const before = await dump();
    await pool.query("UPDATE projection_checkpoints SET position = -1 WHERE projection = 'read_models'");
    await project();
    expect(await dump()).toEqual(before);
  });

  it('rebuilds from position 0 to exactly the live read models', async () => {
    const live = await dump();
    expect(await createProjectionRunner(pool, store).rebuild()).toBe(events);
    expect(await dump()).toEqual(live);
  });
});
