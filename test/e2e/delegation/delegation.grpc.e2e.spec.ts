import { status as GrpcStatus } from '@grpc/grpc-js';
import type { TestApp } from '../../support/app';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { seedParent, startDelegationApp } from './delegation-suite';

// Issue 17 items 1-3 over gRPC: SpawnAgent, the child's turn, the hand-off, ListDelegations, and
// the parent's model turn on the delegating item.

describe('delegation over gRPC', () => {
  let app: TestApp;
  let handedOff: () => Promise<void>;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let host: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;

  async function ok(method: string, request: object): Promise<any> {
    const result = await host(method, request);
    expect(result.error).toBeNull();
    return result.reply;
  }

  beforeAll(async () => {
    ({ app, handedOff } = await startDelegationApp());
    await seedParent(app);
    grpc = runtimeGrpcClient(app);
    host = grpc.as('tok-parent-0123456789');
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('refuses a private child without a message, and another agent token', async () => {
    const bare = await host('SpawnAgent', { agent_id: 'parent-1', workspace_mode: 'private_child' });
    expect(refusalOf(bare)).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    const other = await grpc.as('tok-other-01234567')('SpawnAgent', {
      agent_id: 'parent-1',
      workspace_mode: 'public_named',
    });
    expect(refusalOf(other)).toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
  });

  it('parent -> private child -> report -> the parent model turn on the delegating item', async () => {
    const spawned = await ok('SpawnAgent', {
      agent_id: 'parent-1',
      workspace_mode: 'private_child',
      child_agent_id: 'child-g',
      initial_message: 'Count the files',
      command_id: 'spawn-g',
    });
    expect(spawned).toMatchObject({
      workspace_mode: 'private_child',
      child_agent_id: 'child-g',
      delegation: { direction: 'child', parent_work_item_id: 'w-parent', state: 'delegated', label: 'Count the files' },
      task: { kind: 'child_agent', work_item_id: 'w-parent' },
    });
    await ok('PickWorkItem', { agent_id: 'parent-1', work_item_id: 'w-other' });

    const child = { agent_id: 'child-g' };
    const activation = await ok('Activate', child);
    expect(activation.decision).toMatchObject({ kind: 'StartModelTurn' });
    const turn = { ...child, turn_id: activation.turn.turn_id };
    await ok('CreateWorkItem', { ...child, work_item_id: 'w-count', objective: 'Count the files' });
    await ok('PickWorkItem', { ...child, work_item_id: 'w-count' });
    await ok('RecordRound', { ...turn, round_id: 'r-1', text: 'There are 42 files.' });
    await ok('CompleteWorkItem', { ...child, work_item_id: 'w-count', round_id: 'r-1' });
    await ok('CloseRound', { ...turn, round_id: 'r-1' });
    await ok('TurnTerminal', { ...turn, terminal_kind: 'completed' });
    await handedOff();

    const list = await ok('ListDelegations', { agent_id: 'parent-1' });
    expect(list.items).toEqual([
      expect.objectContaining({
        direction: 'child',
        child_agent_id: 'child-g',
        child_work_item_id: 'w-count',
        state: 'completed',
        result_summary: 'There are 42 files.',
        flagged: false,
      }),
    ]);
    const childSide = await ok('ListDelegations', child);
    expect(childSide.items).toEqual([expect.objectContaining({ direction: 'parent', parent_agent_id: 'parent-1' })]);

    const parentTurn = await ok('Activate', { agent_id: 'parent-1' });
    expect(parentTurn.decision).toMatchObject({ kind: 'StartModelTurn', reason: 'task_result_for_delegation' });
    expect(parentTurn.message).toMatchObject({ kind: 'task_result', work_item_id: 'w-parent' });
    expect(parentTurn.turn.work_item_id).toBe('w-parent');
  });
});
