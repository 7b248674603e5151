import { type AgentCommand } from '@app/domain';
import { createProjectionRunner, RecordQueries } from '@app/read-models';
import { type Build, planArtifact, ProjectionHarness } from './support/projection-harness';

const TABLES = ['waiting_intents', 'tasks', 'timers', 'messages'];
const HASH = 'sha256:feedface';

/** Every waiting-plane record kind, in every status the API can reach. */
function waitingPlaneScript(agentId: string): Build[] {
  const wait =
    (data: Record<string, unknown>): Build =>
    (meta) =>
      ({ type: 'WaitFor', data, meta }) as AgentCommand;
  return [
    (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }),
    (meta) => ({
      type: 'CreateWorkItem',
      data: { work_item_id: 'w-1', objective: 'one', plan_artifact: planArtifact('w-1') },
      meta,
    }),
    (meta) => ({
      type: 'CreateWorkItem',
      data: { work_item_id: 'w-2', objective: 'two', plan_artifact: planArtifact('w-2') },
      meta,
    }),
    (meta) => ({
      type: 'CreateTask',
      data: { task_id: 't-1', kind: 'build', wait_policy: 'blocking', work_item_id: 'w-2' },
      meta,
    }),
    wait({
      scope: 'work_item',
      work_item_id: 'w-1',
      intent_id: 'i-ext',
      wake: 'external',
      reason: 'the deploy hook',
      resource: 'ci',
      callback_token_hash: HASH,
    }),
    wait({
      scope: 'work_item',
      work_item_id: 'w-2',
      intent_id: 'i-task',
      wake: 'task_result',
      reason: 'the build',
      resource: 't-1',
    }),
    wait({
      scope: 'agent',
      intent_id: 'i-timer',
      wake: 'timer',
      reason: 'check later',
      fire_at: '2026-01-02T00:00:00.000Z',
      timer_id: 'tm-wait',
    }),
    (meta) => ({
      type: 'TriggerWaitingIntent',
      data: { intent_id: 'i-ext', source: 'ci', via: 'callback', message_id: 'm-hint' },
      meta,
    }),
    (meta) => ({
      type: 'EnqueueMessage',
      data: {
        message_id: 'm-bg',
        kind: 'operator_prompt',
        body: 'later',
        priority: 'background',
        authority: 'operator_instruction',
      },
      meta,
    }),
    (meta) => ({
      type: 'EnqueueMessage',
      data: {
        message_id: 'm-now',
        kind: 'operator_prompt',
        body: { ask: 'now' },
        priority: 'interject',
        authority: 'operator_instruction',
      },
      meta,
    }),
    (meta) => ({
      type: 'EnqueueMessage',
      data: { message_id: 'm-drop', kind: 'webhook_event', body: 'noise', authority: 'operator_instruction' },
      meta,
    }),
    (meta) => ({ type: 'DropMessage', data: { message_id: 'm-drop' }, meta }),
    (meta) => ({
      type: 'UpdateTaskStatus',
      data: { task_id: 't-1', status: 'completed', detail: 'green', message_id: 'm-result' },
      meta,
    }),
    (meta) => ({ type: 'CreateTimer', data: { timer_id: 'tm-1', duration_ms: 60_000, interval_ms: 60_000 }, meta }),
    (meta) => ({ type: 'CancelTimer', data: { timer_id: 'tm-wait' }, meta }),
    (meta) => ({ type: 'Control', data: { action: 'pause' }, meta }),
  ];
}

describe('the waiting-plane read models (waiting intents, tasks, timers, messages)', () => {
  let world: ProjectionHarness;
  const dump = () => world.dump(TABLES, 'agent_id, id');

  beforeAll(async () => {
    world = await ProjectionHarness.open('records');
    await world.run('agent-a', waitingPlaneScript('agent-a'));
    await world.run('agent-b', waitingPlaneScript('agent-b'));
    await world.project();
  });
  afterAll(() => world?.close());

  it('projects the views the domain derives, in the domain list orders', async () => {
    const queries = new RecordQueries(world.pool);
    const intents = await queries.waitingIntents('agent-a', {});
    expect(intents.items.map((i) => [i.id, i.status, i.trigger_count])).toEqual([
      ['i-timer', 'cancelled', 0],
      ['i-task', 'resolved', 0],
      ['i-ext', 'active', 1],
    ]);
    expect(intents.items[2]).toMatchObject({
      has_callback_token: true,
      triggered: true,
      last_trigger: { via: 'callback' },
    });
    expect(await queries.waitingIntents('agent-a', { status: 'active', work_item_id: 'w-1' })).toMatchObject({
      total: 1,
    });
    expect(await queries.tasks('agent-a', { filter: 'terminal' })).toMatchObject({
      total: 1,
      items: [{ id: 't-1', status: 'completed', terminal: true }],
    });
    const timers = await queries.timers('agent-a', { now: '2030-01-01T00:00:00.000Z' });
    expect(timers.items.map((t) => [t.id, t.status, t.due])).toEqual([
      ['tm-1', 'scheduled', true],
      ['tm-wait', 'cancelled', false],
    ]);
    const queue = await queries.messages('agent-a', {});
    expect(queue.items.map((m) => m.id)).toEqual(['m-now', 'm-hint', 'm-result', 'm-bg']);
    expect((await queries.messages('agent-a', { status: 'dropped' })).items).toMatchObject([
      { id: 'm-drop', status: 'dropped' },
    ]);
  });

  it('never stores the callback token hash in a row', async () => {
    expect(JSON.stringify(await dump())).not.toContain(HASH);
  });

  it('changes nothing when every event is delivered again', async () => {
    const before = await dump();
    await world.pool.query("UPDATE projection_checkpoints SET position = -1 WHERE projection = 'read_models'");
    await world.project();
    expect(await dump()).toEqual(before);
  });

  it('rebuilds from position 0 to exactly the live read models', async () => {
    const live = await dump();
    expect(await createProjectionRunner(world.pool, world.store).rebuild()).toBe(world.events);
    expect(await dump()).toEqual(live);
  });
});
