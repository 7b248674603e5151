import { status as GrpcStatus } from '@grpc/grpc-js';
import { refusalOf, runtimeGrpcClient, type GrpcReply } from '../../support/grpc';
import { encodeStrings, rawGrpcCall } from './support/raw-grpc';
import { classifyRpc, grpcRpcTable, PUBLIC_RPCS, type GrpcRpc } from './support/route-table';
import { missingIds, secret, securityWorld } from './support/world';

/**
 * Every RPC of agent_runtime.v1.AgentRuntime, read from the .proto the server loads, against
 * no token, malformed tokens and another agent's token. Each check walks the whole table and
 * lists every RPC that answers wrongly: a new RPC is covered the day it lands.
 */
describe('security of every gRPC method', () => {
  const world = securityWorld();
  const rpcs = grpcRpcTable();
  const guarded = rpcs.filter((rpc) => classifyRpc(rpc) !== 'public');
  /** The RPCs whose request names the agent they act on (WatchChanges is scoped by the token instead). */
  const onAnAgent = guarded.filter((rpc) => classifyRpc(rpc) === 'agent');
  let grpc: ReturnType<typeof runtimeGrpcClient>;

  beforeAll(() => {
    grpc = runtimeGrpcClient(world.app);
  });
  afterAll(() => grpc?.close());

  /** The request: the agent, and every id field the message has, from `ids`. */
  const requestFor = (rpc: GrpcRpc, ids: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      rpc.requestFields.filter((field) => ids[field] !== undefined).map((field) => [field, ids[field]!]),
    );
  const call = (rpc: GrpcRpc, ids: Record<string, string>, authorization?: string): Promise<GrpcReply> =>
    grpc.call(rpc.name, requestFor(rpc, ids), undefined, authorization === undefined ? {} : { authorization });
  const describeReply = (rpc: GrpcRpc, reply: GrpcReply) =>
    `${rpc.name} -> ${reply.error ? `${reply.error.code} ${reply.error.details}` : 'OK'}`;

  describe('the RPC table', () => {
    it('is read from the .proto, and every RPC is public by design or guarded by the agent of its request', () => {
      expect(rpcs.length).toBeGreaterThan(20);
      expect(rpcs.filter((rpc) => classifyRpc(rpc) === null).map((rpc) => rpc.name)).toEqual([]);
      expect(PUBLIC_RPCS.every((name) => rpcs.some((rpc) => rpc.name === name))).toBe(true);
    });

    it('is implemented: no RPC answers UNIMPLEMENTED', async () => {
      const missing: string[] = [];
      for (const rpc of rpcs) {
        const reply = await call(rpc, world.existing);
        if (reply.error?.code === GrpcStatus.UNIMPLEMENTED) missing.push(rpc.name);
      }
      expect(missing).toEqual([]);
    });
  });

  describe('without a token', () => {
    it('answers every guarded RPC UNAUTHENTICATED (error-code unauthorized), writing nothing', async () => {
      const before = await world.revisionOf(world.mine);
      const wrong: string[] = [];
      for (const rpc of guarded) {
        const reply = await call(rpc, world.existing);
        if (reply.error?.code !== GrpcStatus.UNAUTHENTICATED || refusalOf(reply).errorCode !== 'unauthorized')
          wrong.push(describeReply(rpc, reply));
      }
      expect(wrong).toEqual([]);
      expect(await world.revisionOf(world.mine)).toBe(before);
    });

    it('lets the public Callback through to its own check: NOT_FOUND for a wrong capability, or an API token used as one', async () => {
      const before = await world.revisionOf(world.mine);
      for (const callbackToken of ['cb1.x.y.z', world.tokens.mine, world.tokens.admin]) {
        expect(refusalOf(await grpc.call('Callback', { callback_token: callbackToken, source: 'x' }))).toMatchObject({
          code: GrpcStatus.NOT_FOUND,
          errorCode: 'not_found',
        });
      }
      expect(await world.revisionOf(world.mine)).toBe(before);
    });
  });

  describe('with a malformed or unknown token', () => {
    const variants: [string, () => string][] = [
      ['an empty value', () => ''],
      ['the Basic scheme', () => `Basic ${Buffer.from(`${world.tokens.mine}:`).toString('base64')}`],
      ['the token without a scheme', () => world.tokens.mine],
      ['Bearer and nothing', () => 'Bearer '],
      ['10 KB of token', () => `Bearer ${'x'.repeat(10 * 1024)}`],
      ['an unknown token', () => `Bearer ${secret('nope')}`],
      ['a token differing in case', () => `Bearer ${world.tokens.mine.toUpperCase()}`],
      ['a callback token', () => `Bearer ${world.callbackToken}`],
    ];

    it.each(variants)('answers every guarded RPC UNAUTHENTICATED for %s, writing nothing', async (_name, header) => {
      const before = await world.revisionOf(world.mine);
      const wrong: string[] = [];
      for (const rpc of guarded) {
        const reply = await call(rpc, world.existing, header());
        if (reply.error?.code !== GrpcStatus.UNAUTHENTICATED) wrong.push(describeReply(rpc, reply));
      }
      expect(wrong).toEqual([]);
      expect(await world.revisionOf(world.mine)).toBe(before);
    });

    it('answers non-ASCII bytes in the metadata (which grpc-js will not send) UNAUTHENTICATED over a bare HTTP/2 stream', async () => {
      const path = rpcs.find((rpc) => rpc.name === 'GetAgent')!.path;
      for (const value of ['Bearer t\u00f6k', `Bearer ${Buffer.from('tök€-😀', 'utf8').toString('latin1')}`]) {
        const answer = await rawGrpcCall(world.app.grpcAddress!, path, encodeStrings({ 1: world.mine }), {
          authorization: value,
        });
        expect(answer).toMatchObject({ status: GrpcStatus.UNAUTHENTICATED, errorCode: 'unauthorized' });
      }
      // The same bare call with the right token is served: the refusal above is the token's.
      const served = await rawGrpcCall(world.app.grpcAddress!, path, encodeStrings({ 1: world.mine }), {
        authorization: `Bearer ${world.tokens.mine}`,
      });
      expect(served.status).toBe(GrpcStatus.OK);
    });
  });

  describe("with another agent's token", () => {
    /** The refusal without the agent id: what must not differ between an existing and a missing resource. */
    const shape = (reply: GrpcReply, agentId: string) => {
      const refusal = refusalOf(reply);
      return JSON.stringify({
        code: refusal.code,
        errorCode: refusal.errorCode,
        message: refusal.message,
        details: refusal.details,
      })
        .split(agentId)
        .join('<agent>');
    };

    it('answers every guarded RPC PERMISSION_DENIED, the same for an existing and a missing resource, writing nothing', async () => {
      const before = { mine: await world.revisionOf(world.mine), ghost: await world.revisionOf(world.ghost) };
      const missing = missingIds(world);
      const theirs = `Bearer ${world.tokens.theirs}`;
      const wrong: string[] = [];
      expect(guarded.filter((rpc) => !onAnAgent.includes(rpc)).map((rpc) => rpc.name)).toEqual(['WatchChanges']);
      for (const rpc of onAnAgent) {
        const existing = await call(rpc, world.existing, theirs);
        const missingChildren = await call(rpc, { ...missing, agent_id: world.mine }, theirs);
        const missingAgent = await call(rpc, { ...missing, agent_id: world.ghost }, theirs);
        if (existing.error?.code !== GrpcStatus.PERMISSION_DENIED || refusalOf(existing).errorCode !== 'forbidden') {
          wrong.push(describeReply(rpc, existing));
          continue;
        }
        if (shape(missingChildren, world.mine) !== shape(existing, world.mine))
          wrong.push(`${rpc.name}: a missing resource answers differently`);
        if (shape(missingAgent, world.ghost) !== shape(existing, world.mine))
          wrong.push(`${rpc.name}: a missing agent answers differently`);
      }
      expect(wrong).toEqual([]);
      expect(await world.revisionOf(world.mine)).toBe(before.mine);
      expect(await world.revisionOf(world.ghost)).toBe(before.ghost);
    });
  });

  it('serves the right token on its own agent (the refusals above are not a broken server)', async () => {
    const reply = await grpc.call('GetWorkItem', { agent_id: world.mine, work_item_id: 'w-sec' }, world.tokens.mine);
    expect(reply.error).toBeNull();
    expect(reply.reply.id).toBe('w-sec');
  });
});
