import { status as GrpcStatus } from '@grpc/grpc-js';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { schedulerSuite } from './scheduler-suite';

/** Stop and pause reach the running turn over gRPC (docs/domain-contract.md §4): the same life as over HTTP. */
describe('stop and pause reach the running turn over gRPC', () => {
  const s = schedulerSuite({ scheduler: false });
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let host: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  const ok = async (method: string, request: object = {}): Promise<any> => {
    const result = await host(method, { agent_id: s.agent, ...request });
    expect(result.error).toBeNull();
    return result.reply;
  };
  const openTurn = async (text: string) => {
    const prompt = (await ok('EnqueueMessage', { kind: 'operator_prompt', body: { text } })).message;
    const activation = await ok('Activate');
    expect(activation.decision).toMatchObject({ kind: 'StartModelTurn', message_id: prompt.id });
    return { turnId: activation.turn.turn_id as string, messageId: prompt.id as string };
  };

  beforeAll(() => {
    grpc = runtimeGrpcClient(s.app);
    host = grpc.as('tok-host');
  });
  afterAll(() => grpc?.close());

  it('pause: the heartbeat asks to cancel; the aborted turn requeues its message; resume replays it', async () => {
    const { turnId, messageId } = await openTurn('Summarise the incident.');
    expect(await ok('Heartbeat', { turn_id: turnId })).toMatchObject({
      posture: 'awake_running',
      cancel_requested: false,
    });
    await ok('Control', { action: 'pause' });
    expect(await ok('Heartbeat', { turn_id: turnId })).toMatchObject({ posture: 'paused', cancel_requested: true });
    const end = await ok('TurnTerminal', { turn_id: turnId, terminal_kind: 'aborted' });
    expect(end.message).toMatchObject({ id: messageId, status: 'queued' });
    await ok('Control', { action: 'resume' });
    const replay = await ok('Activate');
    expect(replay.decision).toMatchObject({ kind: 'StartModelTurn', message_id: messageId });
    await ok('TurnTerminal', { turn_id: replay.turn.turn_id, terminal_kind: 'completed' });
  });

  it('stop: rounds and interjections are refused with agent_stopped; the terminal is accepted', async () => {
    const { turnId, messageId } = await openTurn('Rotate the keys.');
    await ok('Control', { action: 'stop' });
    expect(await ok('Heartbeat', { turn_id: turnId })).toMatchObject({ posture: 'stopped', cancel_requested: true });
    const round = refusalOf(await host('RecordRound', { agent_id: s.agent, turn_id: turnId, round_id: 'r-1' }));
    expect(round).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      errorCode: 'agent_stopped',
      details: { rule: 'agent_stopped' },
    });
    const interject = refusalOf(
      await host('EnqueueMessage', {
        agent_id: s.agent,
        kind: 'operator_prompt',
        priority: 'interject',
        body: { text: 'wait' },
      }),
    );
    expect(interject).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION, errorCode: 'agent_stopped' });
    const end = await ok('TurnTerminal', { turn_id: turnId, terminal_kind: 'aborted' });
    expect(end.message).toMatchObject({ id: messageId, status: 'aborted' });
  });
});
