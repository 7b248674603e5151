import type { AgentCommand } from '@app/domain';
import { createProjectionRunner, RecordQueries } from '@app/read-models';
import { type Build, ProjectionHarness } from './support/projection-harness';

const enqueue =
  (id: string, body: unknown): Build =>
  (meta) =>
    ({
      type: 'EnqueueMessage',
      data: { message_id: id, kind: 'operator_prompt', body, authority: 'operator_instruction' },
      meta,
    }) as AgentCommand;
const startTurn =
  (turnId: string, messageId: string): Build =>
  (meta) => ({
    type: 'StartTurn',
    data: { turn_id: turnId, message_id: messageId, lease_ttl_ms: 60_000 },
    meta,
  });
const endTurn =
  (turnId: string): Build =>
  (meta) => ({
    type: 'TurnTerminal',
    data: { turn_id: turnId, terminal_kind: 'completed' },
    meta,
  });

/**
 * The state keeps no body of a processed message (ADR 0042); GET .../messages still shows it,
 * from the row: whether the runner saw the message queued in an earlier batch or not, after a
 * redelivery and after a rebuild.
 */
describe('the messages read model: processed messages keep their bodies', () => {
  let world: ProjectionHarness;
  const queries = () => new RecordQueries(world.pool);
  const processed = async () => (await queries().messages('agent-a', { status: 'processed' })).items;

  beforeAll(async () => {
    world = await ProjectionHarness.open('bodies');
    await world.run('agent-a', [
      (meta) => ({ type: 'RegisterAgent', data: { agent_id: 'agent-a' }, meta }),
      enqueue('m-1', 'Fix the build.'),
      startTurn('t-1', 'm-1'),
    ]);
    await world.project(); // m-1's row, dequeued, with its body
    await world.run('agent-a', [endTurn('t-1'), enqueue('m-2', { pr: 42 }), startTurn('t-2', 'm-2'), endTurn('t-2')]);
    await world.project(); // m-2 queued and processed in one batch
  });
  afterAll(() => world?.close());

  it('the state holds no body, the rows do', async () => {
    const { state } = await world.repository.load('agent-a');
    expect(state.messages.values().map((m) => [m.id, m.status, m.body])).toEqual([
      ['m-1', 'processed', null],
      ['m-2', 'processed', null],
    ]);
    expect((await processed()).map((m) => [m.id, m.body])).toEqual([
      ['m-2', { pr: 42 }],
      ['m-1', 'Fix the build.'],
    ]);
  });

  it('keeps them when every event is delivered again, and a rebuild writes them again', async () => {
    const before = await processed();
    await world.pool.query("UPDATE projection_checkpoints SET position = -1 WHERE projection = 'read_models'");
    await world.project();
    expect(await processed()).toEqual(before);
    expect(await createProjectionRunner(world.pool, world.store).rebuild()).toBe(world.events);
    expect(await processed()).toEqual(before);
  });
});
