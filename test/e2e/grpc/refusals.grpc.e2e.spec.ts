import { status as GrpcStatus } from '@grpc/grpc-js';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { freshId } from '../../support/postgres';

describe('refusals, idempotency and limits over gRPC', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let store: EventStore;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let scoped: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let admin: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let anonymous: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;

  const revisionOf = (agentId: string) => store.streamRevision(agentStream(agentId));

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}` });
    store = app.runtime.app.get<EventStore>(EVENT_STORE);
    grpc = runtimeGrpcClient(app);
    scoped = grpc.as('tok-mine');
    admin = grpc.as('tok-admin');
    anonymous = grpc.as();
    expect((await scoped('RegisterAgent', { agent_id: mine })).error).toBeNull();
    expect((await admin('RegisterAgent', { agent_id: other })).error).toBeNull();
    expect(
      (await scoped('CreateWorkItem', { agent_id: mine, work_item_id: 'w-open', objective: 'open item' })).error,
    ).toBeNull();
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  describe('INVALID_ARGUMENT', () => {
    it.each<[string, string, object, string]>([
      ['a bad agent id', 'CreateWorkItem', { agent_id: '../etc', objective: 'o' }, 'agent_id'],
      ['a missing agent id', 'GetAgent', { agent_id: '' }, 'agent_id'],
      ['a bad work item id', 'PickWorkItem', { work_item_id: 'bad/id' }, 'work_item_id'],
      [
        'a bad caller-supplied work item id',
        'CreateWorkItem',
        { work_item_id: '../etc', objective: 'o' },
        'work_item_id',
      ],
      ['an empty objective', 'CreateWorkItem', { objective: '   ' }, 'objective'],
      ['a missing objective', 'CreateWorkItem', {}, 'objective'],
      ['a 501-character objective', 'CreateWorkItem', { objective: 'x'.repeat(501) }, 'objective'],
      [
        'an unknown todo state',
        'CreateWorkItem',
        { objective: 'o', todo_list: [{ text: 't', state: 'done' }] },
        'todo_list',
      ],
      ['an unknown plan status', 'UpdateWorkItem', { work_item_id: 'w-open', plan_status: 'finished' }, 'plan_status'],
      [
        'a blocker with its clear flag',
        'UpdateWorkItem',
        { work_item_id: 'w-open', blocked_by: 'x', clear_blocked_by: true },
        'blocked_by',
      ],
      [
        'todos with their clear flag',
        'UpdateWorkItem',
        { work_item_id: 'w-open', todo_list: [{ text: 't', state: 'pending' }], clear_todo_list: true },
        'todo_list',
      ],
      [
        'a malformed expected_revision',
        'PickWorkItem',
        { work_item_id: 'w-open', expected_revision: '-1' },
        'expected_revision',
      ],
      ['a command_id with spaces', 'CompleteWorkItem', { work_item_id: 'w-open', command_id: 'a key' }, 'command_id'],
      ['a bad round id', 'CompleteWorkItem', { work_item_id: 'w-open', round_id: 'r/1' }, 'round_id'],
      ['an unknown list filter', 'ListWorkItems', { filter: 'nonsense' }, 'filter'],
    ])('refuses %s (%s) naming the field, writing nothing', async (_name, method, request, field) => {
      const before = await revisionOf(mine);
      // The admin token passes auth for any agent id, so the request's shape is what is checked.
      const refusal = refusalOf(await admin(method, { agent_id: mine, ...request }));
      expect(refusal).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, errorCode: 'validation_failed' });
      expect(`${refusal.message} ${JSON.stringify(refusal.details)}`).toContain(field);
      expect(await revisionOf(mine)).toBe(before);
    });
  });

  describe('auth', () => {
    it.each([
      ['RegisterAgent', {}],
      ['GetAgent', {}],
      ['CreateWorkItem', { objective: 'o' }],
      ['UpdateWorkItem', { work_item_id: 'w-open' }],
      ['PickWorkItem', { work_item_id: 'w-open' }],
      ['CompleteWorkItem', { work_item_id: 'w-open' }],
      ['GetWorkItem', { work_item_id: 'w-open' }],
      ['ListWorkItems', {}],
      ['GetPlan', { work_item_id: 'w-open' }],
      ['ReplacePlan', { work_item_id: 'w-open', body: 'x' }],
    ])('refuses %s without a token: UNAUTHENTICATED', async (method, request) => {
      const refusal = refusalOf(await anonymous(method, { agent_id: mine, ...request }));
      expect(refusal).toMatchObject({ code: GrpcStatus.UNAUTHENTICATED, errorCode: 'unauthorized' });
    });

    it("refuses another agent's token: PERMISSION_DENIED, nothing written", async () => {
      const stranger = freshId('agent');
      expect(refusalOf(await scoped('RegisterAgent', { agent_id: stranger }))).toMatchObject({
        code: GrpcStatus.PERMISSION_DENIED,
        errorCode: 'forbidden',
      });
      expect(await revisionOf(stranger)).toBeNull();
      const before = await revisionOf(other);
      for (const [method, request] of [
        ['CreateWorkItem', { objective: 'intrusion' }],
        ['ReplacePlan', { work_item_id: 'w-1', body: 'x' }],
        ['GetAgent', {}],
        ['ListWorkItems', {}],
      ] as const) {
        expect(refusalOf(await scoped(method, { agent_id: other, ...request })).code).toBe(
          GrpcStatus.PERMISSION_DENIED,
        );
      }
      expect(await revisionOf(other)).toBe(before);
      expect(refusalOf(await grpc.call('GetAgent', { agent_id: mine }, 'tok-unknown')).code).toBe(
        GrpcStatus.UNAUTHENTICATED,
      );
    });
  });

  describe('NOT_FOUND', () => {
    it.each<[string, object]>([
      ['GetAgent', { agent_id: 'ghost-agent' }],
      ['CreateWorkItem', { agent_id: 'ghost-agent', objective: 'o', plan: 'p' }],
      ['GetWorkItem', { work_item_id: 'missing' }],
      ['PickWorkItem', { work_item_id: 'missing' }],
      ['UpdateWorkItem', { work_item_id: 'missing', objective: 'o' }],
      ['CompleteWorkItem', { work_item_id: 'missing' }],
      ['GetPlan', { work_item_id: 'missing' }],
      ['ReplacePlan', { work_item_id: 'missing', body: 'x' }],
    ])('answers %s on something unknown with NOT_FOUND', async (method, request) => {
      const refusal = refusalOf(await admin(method, { agent_id: mine, ...request }));
      expect(refusal).toMatchObject({ code: GrpcStatus.NOT_FOUND, errorCode: 'not_found' });
    });
  });

  describe('conflicts and domain refusals', () => {
    it('refuses to register an agent twice, or to reuse a work item id: ALREADY_EXISTS', async () => {
      const id = freshId('agent');
      expect((await admin('RegisterAgent', { agent_id: id })).error).toBeNull();
      const again = refusalOf(await admin('RegisterAgent', { agent_id: id }));
      expect(again).toMatchObject({
        code: GrpcStatus.ALREADY_EXISTS,
        errorCode: 'conflict',
        details: { reason: 'already_exists' },
      });
      expect(await revisionOf(id)).toBe(0n);
      const duplicate = refusalOf(
        await scoped('CreateWorkItem', { agent_id: mine, work_item_id: 'w-open', objective: 'again' }),
      );
      expect(duplicate.code).toBe(GrpcStatus.ALREADY_EXISTS);
    });

    it('refuses any expected_revision on the registration of a new agent: ABORTED, current_revision null', async () => {
      const id = freshId('agent');
      const refusal = refusalOf(await admin('RegisterAgent', { agent_id: id, expected_revision: '0' }));
      expect(refusal).toMatchObject({ code: GrpcStatus.ABORTED, details: { current_revision: null } });
      expect(await revisionOf(id)).toBeNull();
    });

    it('refuses a stale expected_revision: ABORTED with current_revision in the error-details trailer', async () => {
      const current = await scoped('CreateWorkItem', { agent_id: mine, objective: 'rev' });
      const stale = refusalOf(
        await scoped('CreateWorkItem', {
          agent_id: mine,
          objective: 'stale',
          expected_revision: String(BigInt(current.reply.revision) - 1n),
        }),
      );
      expect(stale).toMatchObject({
        code: GrpcStatus.ABORTED,
        errorCode: 'conflict',
        details: { current_revision: current.reply.revision },
      });
      expect(String(await revisionOf(mine))).toBe(current.reply.revision);
      const fresh = await scoped('CreateWorkItem', {
        agent_id: mine,
        objective: 'fresh',
        expected_revision: current.reply.revision,
      });
      expect(fresh.error).toBeNull();
      expect(BigInt(fresh.reply.revision)).toBe(BigInt(current.reply.revision) + 1n);
    });

    it('refuses to pick or change a completed item: FAILED_PRECONDITION, nothing written', async () => {
      await scoped('CreateWorkItem', { agent_id: mine, work_item_id: 'w-done', objective: 'finish' });
      expect((await scoped('CompleteWorkItem', { agent_id: mine, work_item_id: 'w-done' })).error).toBeNull();
      const before = await revisionOf(mine);
      const pick = refusalOf(await scoped('PickWorkItem', { agent_id: mine, work_item_id: 'w-done', reason: 'look' }));
      expect(pick).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION, errorCode: 'invariant_violated' });
      expect(
        refusalOf(await scoped('UpdateWorkItem', { agent_id: mine, work_item_id: 'w-done', objective: 'reopen?' }))
          .code,
      ).toBe(GrpcStatus.FAILED_PRECONDITION);
      expect(await revisionOf(mine)).toBe(before);
    });
  });

  describe('idempotency', () => {
    it('answers a repeated command_id with the first reply and appends nothing', async () => {
      const command_id = freshId('key');
      const first = await scoped('CreateWorkItem', { agent_id: mine, objective: 'once', command_id });
      expect(first.error).toBeNull();
      const second = await scoped('CreateWorkItem', { agent_id: mine, objective: 'once', command_id });
      expect(second).toEqual(first);
      expect(String(await revisionOf(mine))).toBe(first.reply.revision);
      const [event] = await store.readStream(agentStream(mine), {
        from_revision: BigInt(first.reply.revision),
        max_count: 1,
      });
      expect(event?.metadata).toMatchObject({ command_id });
      const next = await scoped('CreateWorkItem', { agent_id: mine, objective: 'later' });
      expect(BigInt(next.reply.revision)).toBe(BigInt(first.reply.revision) + 1n);
    });

    it('answers a repeated registration with the same command_id instead of ALREADY_EXISTS', async () => {
      const id = freshId('agent');
      const command_id = freshId('key');
      const first = await admin('RegisterAgent', { agent_id: id, command_id, correlation_id: 'corr-1' });
      const second = await admin('RegisterAgent', { agent_id: id, command_id, correlation_id: 'corr-1' });
      expect(first.error).toBeNull();
      expect(second).toEqual(first);
      expect(await revisionOf(id)).toBe(0n);
      const [registered] = await store.readStream(agentStream(id));
      expect(registered?.metadata).toMatchObject({ command_id, correlation_id: 'corr-1' });
    });
  });

  describe('limits', () => {
    it('refuses a request over 1 MiB: RESOURCE_EXHAUSTED with the payload_too_large trailer, nothing written', async () => {
      const before = await revisionOf(mine);
      const result = await scoped('CreateWorkItem', { agent_id: mine, objective: 'x'.repeat(1024 * 1024 + 10) });
      expect(result.error?.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
      expect(refusalOf(result)).toMatchObject({ errorCode: 'payload_too_large', details: { max_bytes: 1024 * 1024 } });
      const unauthenticated = await anonymous('CreateWorkItem', {
        agent_id: mine,
        objective: 'x'.repeat(2 * 1024 * 1024),
      });
      expect(refusalOf(unauthenticated)).toMatchObject({
        code: GrpcStatus.RESOURCE_EXHAUSTED,
        errorCode: 'payload_too_large',
      });
      const plan = await scoped('ReplacePlan', {
        agent_id: mine,
        work_item_id: 'w-open',
        body: 'p'.repeat(1024 * 1024 + 1),
      });
      expect(plan.error?.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
      expect(refusalOf(plan).errorCode).toBe('payload_too_large');
      expect(await revisionOf(mine)).toBe(before);
    });
  });
});
