import { status as GrpcStatus } from '@grpc/grpc-js';
import { startTestApp, type TestApp } from '../../support/app';
import { agentsProjected, callerEventsOf, refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { freshId } from '../../support/postgres';

describe('the waiting plane over gRPC', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let scoped: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let anonymous: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  /** Events callers wrote (not the scheduler worker's): "nothing written" = unchanged. */
  const written = async (agentId: string) => (await callerEventsOf(app, agentId)).length;

  async function ok(method: string, request: object): Promise<any> {
    const result = await scoped(method, { agent_id: mine, ...request });
    expect(result.error).toBeNull();
    return result.reply;
  }
  const item = async () => (await ok('CreateWorkItem', { objective: 'an item' })).work_item.id as string;

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}` });
    grpc = runtimeGrpcClient(app);
    scoped = grpc.as('tok-mine');
    anonymous = grpc.as();
    await ok('RegisterAgent', {});
    expect((await grpc.as('tok-admin')('RegisterAgent', { agent_id: other })).error).toBeNull();
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('WaitFor on an item blocks it; at agent scope there is no work item', async () => {
    const id = await item();
    const reply = await ok('WaitFor', { work_item_id: id, wake: 'operator_input', reason: 'sign-off' });
    expect(reply).toMatchObject({
      waiting_intent: { scope: 'work_item', work_item_id: id, status: 'active', has_callback_token: false },
      work_item: { id, blocked_by: 'sign-off', scheduling_state: 'waiting_operator' },
      warnings: [],
      revision: expect.stringMatching(/^\d+$/),
    });
    expect(reply.callback_token).toBeUndefined();
    const agentScope = await ok('WaitFor', { wake: 'timer', reason: 'later', fire_at: '2099-01-01T00:00:00Z' });
    expect(agentScope.waiting_intent).toMatchObject({ scope: 'agent', timer_id: expect.stringMatching(/^timer_/) });
    expect(agentScope.work_item).toBeNull();
  });

  it('an external wait returns its token once; Callback needs no bearer token and answers NOT_FOUND for a wrong one', async () => {
    const id = await item();
    const command_id = freshId('key');
    const wait = await ok('WaitFor', {
      work_item_id: id,
      wake: 'external',
      reason: 'the webhook',
      resource: 'hook',
      command_id,
    });
    expect(wait.callback_token).toMatch(/^cb1\./);
    const repeat = await ok('WaitFor', {
      work_item_id: id,
      wake: 'external',
      reason: 'the webhook',
      resource: 'hook',
      command_id,
    });
    expect(repeat.callback_token).toBeUndefined();
    expect(repeat.waiting_intent.id).toBe(wait.waiting_intent.id);
    const fired = await anonymous('Callback', {
      callback_token: wait.callback_token,
      source: 'hook',
      payload: { json: '{"ok":true}' },
      event_id: 'e-1',
    });
    expect(fired.error).toBeNull();
    expect(fired.reply).toMatchObject({
      status: 'triggered',
      waiting_intent_id: wait.waiting_intent.id,
      trigger_count: 1,
    });
    const before = await written(mine);
    expect(
      (await anonymous('Callback', { callback_token: wait.callback_token, source: 'hook', event_id: 'e-1' })).reply,
    ).toEqual(fired.reply);
    expect(await written(mine)).toBe(before);
    const wrong = refusalOf(
      await anonymous('Callback', { callback_token: `${wait.callback_token.slice(0, -2)}AA`, source: 'hook' }),
    );
    expect(wrong).toMatchObject({ code: GrpcStatus.NOT_FOUND, errorCode: 'not_found' });
    expect(
      refusalOf(
        await anonymous('Callback', { callback_token: wait.callback_token, source: 'hook', payload: { json: '[1]' } }),
      ).code,
    ).toBe(GrpcStatus.INVALID_ARGUMENT);
  });

  it('triggers (the intent stays active), cancels, and refuses a trigger on a cancelled intent: ABORTED with status', async () => {
    const id = await item();
    const intent = (
      await ok('WaitFor', {
        work_item_id: id,
        wake: 'external',
        resource: 'chat/1',
        reason: 'reply',
        delivery_mode: 'enqueue_message',
      })
    ).waiting_intent;
    const trigger = await ok('TriggerWaitingIntent', { intent_id: intent.id, source: 'chat', payload: { text: 'go' } });
    expect(trigger).toMatchObject({
      status: 'triggered',
      waiting_intent: { status: 'active', trigger_count: 1, last_trigger: { source: 'chat', via: 'api' } },
      message: { kind: 'callback_event', authority: 'integration_signal', body: { text: 'go' } },
    });
    expect(trigger.disposition).toBeUndefined();
    expect(await ok('CancelWaitingIntent', { intent_id: intent.id, note: 'done' })).toMatchObject({
      cancelled: true,
      waiting_intent: { status: 'cancelled' },
    });
    const before = await written(mine);
    const refusal = refusalOf(
      await scoped('TriggerWaitingIntent', { agent_id: mine, intent_id: intent.id, source: 'late' }),
    );
    expect(refusal).toMatchObject({
      code: GrpcStatus.ABORTED,
      errorCode: 'conflict',
      details: { status: 'cancelled' },
    });
    expect(await written(mine)).toBe(before);
    await agentsProjected(app, mine);
    const list = await ok('ListWaitingIntents', { work_item_id: id });
    expect(list).toMatchObject({
      total: 1,
      items: [{ id: intent.id, status: 'cancelled', end_reason: 'cancelled_by_caller' }],
    });
  });

  it('refuses to trigger an operator_input wait: FAILED_PRECONDITION wake_mismatch', async () => {
    const intent = (await ok('WaitFor', { work_item_id: await item(), wake: 'operator_input', reason: 'r' }))
      .waiting_intent;
    const refusal = refusalOf(
      await scoped('TriggerWaitingIntent', { agent_id: mine, intent_id: intent.id, source: 's' }),
    );
    expect(refusal).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION, errorCode: 'wake_mismatch' });
  });

  it('submits wake hints: triggered on an idle agent, then coalesced', async () => {
    const agent = freshId('agent');
    const admin = grpc.as('tok-admin');
    await admin('RegisterAgent', { agent_id: agent });
    const first = await admin('SubmitWakeHint', { agent_id: agent, source: 'cron', reason: 'tick' });
    expect(first.reply).toMatchObject({
      disposition: 'triggered',
      message: { kind: 'system_tick', liveness_only: true },
    });
    await admin('EnqueueMessage', { agent_id: agent, kind: 'operator_prompt', body: { text: 'pending work' } });
    const second = await admin('SubmitWakeHint', {
      agent_id: agent,
      source: 'cron',
      reason: 'tick',
      body: { text: 'details' },
    });
    expect(second.reply).toMatchObject({ disposition: 'coalesced' });
    expect(second.reply.message).toBeNull();
  });

  it.each<[string, object, number]>([
    ['WaitFor', { wake: 'soon', reason: 'r' }, GrpcStatus.INVALID_ARGUMENT],
    ['WaitFor', { work_item_id: 'bad/id', wake: 'operator_input', reason: 'r' }, GrpcStatus.INVALID_ARGUMENT],
    ['WaitFor', { work_item_id: 'missing', wake: 'operator_input', reason: 'r' }, GrpcStatus.NOT_FOUND],
    ['TriggerWaitingIntent', { intent_id: 'missing', source: 's' }, GrpcStatus.NOT_FOUND],
    ['CancelWaitingIntent', { intent_id: '' }, GrpcStatus.INVALID_ARGUMENT],
    ['ListWaitingIntents', { status: 'sleeping' }, GrpcStatus.INVALID_ARGUMENT],
    ['SubmitWakeHint', { source: 's' }, GrpcStatus.INVALID_ARGUMENT],
  ])('refuses %s %j', async (method, request, code) => {
    const before = await written(mine);
    expect(refusalOf(await scoped(method, { agent_id: mine, ...request })).code).toBe(code);
    expect(await written(mine)).toBe(before);
  });

  it('refuses a missing token (UNAUTHENTICATED) and another agent (PERMISSION_DENIED, nothing written)', async () => {
    expect(refusalOf(await anonymous('WaitFor', { agent_id: mine, wake: 'operator_input', reason: 'r' })).code).toBe(
      GrpcStatus.UNAUTHENTICATED,
    );
    const before = await written(other);
    for (const method of ['WaitFor', 'SubmitWakeHint', 'ListWaitingIntents']) {
      const refusal = refusalOf(
        await scoped(method, { agent_id: other, wake: 'operator_input', reason: 'r', source: 's' }),
      );
      expect(refusal.code).toBe(GrpcStatus.PERMISSION_DENIED);
    }
    expect(await written(other)).toBe(before);
  });
});
