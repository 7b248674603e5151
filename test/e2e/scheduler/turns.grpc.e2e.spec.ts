import { status as GrpcStatus } from '@grpc/grpc-js';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { freshId } from '../../support/postgres';
import { schedulerSuite } from './scheduler-suite';

/** proto-loader's `_<field>` presence marks and a oneof's case name are not data. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('_') && key !== 'content')
      .map(([key, inner]) => [key, plain(inner)]),
  );
}
/** The HTTP JSON as the gRPC edge sends it: null is an absent field. */
const withoutNulls = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_key, inner) => (inner === null ? undefined : inner)));

/** Turns and the scheduler's reads over gRPC, against the same app's HTTP answers (no worker: activations step themselves). */
describe('turns and scheduler reads over gRPC', () => {
  const s = schedulerSuite({ scheduler: false });
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let host: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let turnId: string;
  const ok = async (method: string, request: object = {}): Promise<any> => {
    const result = await host(method, { agent_id: s.agent, ...request });
    expect(result.error).toBeNull();
    return result.reply;
  };
  const refused = async (method: string, request: object) =>
    refusalOf(await host(method, { agent_id: s.agent, ...request }));

  beforeAll(() => {
    grpc = runtimeGrpcClient(s.app);
    host = grpc.as('tok-host');
  });
  afterAll(() => grpc?.close());

  it('activates: an operator prompt opens a turn with its lease, message and context', async () => {
    const prompt = (await ok('EnqueueMessage', { kind: 'operator_prompt', body: { text: 'Fix the login bug.' } }))
      .message;
    const activation = await ok('Activate', { lease_ttl_ms: 90_000, context_budget: 2048 });
    expect(activation.decision).toMatchObject({
      kind: 'StartModelTurn',
      reason: 'operator_input',
      message_id: prompt.id,
      evidence: expect.arrayContaining([`message:${prompt.id}`]),
    });
    expect(activation.turn).toMatchObject({
      turn_id: expect.stringMatching(/^turn_/),
      turn_index: 1,
      lease_expires_at: new Date(s.clock.now().getTime() + 90_000).toISOString(),
    });
    expect(activation.message).toMatchObject({
      id: prompt.id,
      status: 'dequeued',
      body: { text: 'Fix the login bug.' },
    });
    expect(activation.context).toMatchObject({
      budget_tokens: 2048,
      sections: [{ name: 'current_work_item' }],
      truncated: false,
    });
    turnId = activation.turn.turn_id;
    expect((await ok('Activate')).decision).toMatchObject({ kind: 'Noop', reason: 'turn_in_progress' });
    expect((await ok('Activate')).turn).toBeNull();
  });

  it('heartbeats (handing over interjections), records rounds and promotes the completion report', async () => {
    const interject = (
      await ok('EnqueueMessage', {
        kind: 'operator_prompt',
        priority: 'interject',
        body: { text: 'Check logout too.' },
      })
    ).message;
    const heartbeat = await ok('Heartbeat', { turn_id: turnId });
    expect(heartbeat.turn.lease_expires_at).toBe(new Date(s.clock.now().getTime() + 90_000).toISOString());
    expect(heartbeat.interjections).toEqual([expect.objectContaining({ id: interject.id, status: 'interjected' })]);
    await ok('CreateWorkItem', {
      work_item_id: 'w-1',
      objective: 'Fix the login bug',
      todo_list: [{ text: 'test it', state: 'pending' }],
    });
    await ok('PickWorkItem', { work_item_id: 'w-1', reason: 'the prompt' });
    const round = await ok('RecordRound', {
      turn_id: turnId,
      round_id: 'r-1',
      text: 'Fixed: the cookie was stale.',
      tool_calls: [{ tool_call_id: 'tc-1', name: 'edit_file' }],
    });
    expect(round).toMatchObject({
      round: {
        round_id: 'r-1',
        status: 'open',
        work_item_id: 'w-1',
        tool_calls: [{ tool_call_id: 'tc-1', name: 'edit_file' }],
      },
      warnings: [],
    });
    expect(round.closed_round).toBeNull();
    await ok('CompleteWorkItem', { work_item_id: 'w-1', round_id: 'r-1' });
    const promotion = { work_item_id: 'w-1', delivery_summary_id: 'ds_r-1', brief_id: 'brief_round_r-1' };
    const closed = await ok('CloseRound', { turn_id: turnId, round_id: 'r-1' });
    expect(closed).toMatchObject({ promotion, warnings: [] });
    expect((await ok('CloseRound', { turn_id: turnId, round_id: 'r-1' })).revision).toBe(closed.revision);
    const end = await ok('TurnTerminal', {
      turn_id: turnId,
      terminal_kind: 'completed',
      last_assistant_message: 'Done.',
    });
    expect(end).toMatchObject({
      turn: {
        turn_id: turnId,
        status: 'closed',
        promoted_round_ids: ['r-1'],
        terminal: { terminal_kind: 'completed' },
      },
      message: { status: 'processed' },
    });
    expect(end.brief).toBeNull();
  });

  it('answers GetState, GetContext, ListDecisions, ListBriefs and ListDeliverySummaries as HTTP does', async () => {
    await s.settled();
    const state = withoutNulls(plain(await ok('GetState')));
    const http = withoutNulls((await s.get('/state')).body);
    http.candidates = Object.fromEntries(Object.entries(http.candidates).map(([cls, ids]) => [cls, { ids }]));
    // projection_lag is the store's (checkpoint and head are global positions): suites running
    // beside this one move them between the two reads, so it is compared by shape only.
    const lagShape = { checkpoint: expect.any(String), caught_up: expect.any(Boolean) };
    expect(state.projection_lag).toMatchObject(lagShape);
    expect(http.projection_lag).toMatchObject(lagShape);
    expect({ ...state, projection_lag: null }).toEqual({ ...http, projection_lag: null });
    const context = plain(await ok('GetContext', { budget: 30 })) as any;
    const httpContext = (await s.get('/context?budget=30')).body;
    expect(context).toMatchObject({ ...withoutNulls(httpContext), sections: expect.any(Array) });
    expect(context.truncated).toBe(true);
    expect(context.sections.map((section: any) => JSON.parse(section.content_json ?? 'null'))).toEqual(
      httpContext.sections.map((section: any) => section.content),
    );
    expect(plain(await ok('ListDecisions', { limit: 2 }))).toEqual(
      withoutNulls((await s.get('/decisions?limit=2')).body),
    );
    expect(plain(await ok('ListBriefs', { kind: 'result' }))).toEqual(
      withoutNulls((await s.get('/briefs?kind=result')).body),
    );
    const summaries = await ok('ListDeliverySummaries', { work_item_id: 'w-1' });
    expect(summaries).toMatchObject({
      total: 1,
      items: [
        {
          id: 'ds_r-1',
          evidence: { source: 'report_promotion', tool_call_ids: ['tc-1'], warnings: [{ kind: 'unfinished_todos' }] },
        },
      ],
    });
  });

  it('refuses as HTTP does: unknown turn, ended turn, bad fields, stale revision, another agent', async () => {
    expect(await refused('Heartbeat', { turn_id: 'turn_ghost' })).toMatchObject({
      code: GrpcStatus.NOT_FOUND,
      errorCode: 'not_found',
    });
    expect(await refused('Heartbeat', { turn_id: turnId })).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      details: { rule: 'turn_not_open' },
    });
    expect(await refused('RecordRound', { turn_id: turnId, round_id: 'r-late' })).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      details: { rule: 'turn_not_open' },
    });
    expect(await refused('TurnTerminal', { turn_id: turnId, terminal_kind: 'aborted' })).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      details: { rule: 'turn_already_terminal' },
    });
    expect(await refused('TurnTerminal', { turn_id: turnId, terminal_kind: 'exploded' })).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    expect(await refused('RecordRound', { turn_id: turnId })).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    expect(await refused('CloseRound', { turn_id: turnId, round_id: 'r/1' })).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    expect(await refused('Heartbeat', { turn_id: turnId, expected_revision: '0' })).toMatchObject({
      code: GrpcStatus.ABORTED,
    });
    expect(await refused('GetContext', { budget: 0, agent_id: freshId('nobody') })).toMatchObject({
      code: GrpcStatus.PERMISSION_DENIED,
    });
    expect(refusalOf(await grpc.as('tok-admin')('GetState', { agent_id: freshId('nobody') }))).toMatchObject({
      code: GrpcStatus.NOT_FOUND,
    });
  });

  it('answers a repeated command_id with the first reply: the activation opened one turn', async () => {
    await ok('EnqueueMessage', { kind: 'operator_prompt', body: { text: 'Again.' } });
    const first = await ok('Activate', { command_id: 'activate-once' });
    expect(first.decision.kind).toBe('StartModelTurn');
    expect(await ok('Activate', { command_id: 'activate-once' })).toEqual(first);
    expect((await ok('Activate')).decision).toMatchObject({
      kind: 'Noop',
      evidence: expect.arrayContaining([`open_turn:${first.turn.turn_id}`]),
    });
  });
});
