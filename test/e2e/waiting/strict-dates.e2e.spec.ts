import { status as GrpcStatus } from '@grpc/grpc-js';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { waitingSuite } from './waiting-suite';

// Issue 14, item 1: an impossible date is refused at the edge (400 / INVALID_ARGUMENT naming the
// field), never appended; a valid one with an offset is stored as the same instant in UTC.
describe('strict dates over HTTP and gRPC', () => {
  const s = waitingSuite();
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let itemId: string;
  beforeAll(async () => {
    grpc = runtimeGrpcClient(s.app);
    itemId = await s.item('an item with a deadline');
  });
  afterAll(() => grpc?.close());

  const rpc = (method: string, request: object) => grpc.call(method, { agent_id: s.mine, ...request }, 'tok-mine');
  const IMPOSSIBLE = ['2021-02-30T00:00:00Z', '2030-06-31T00:00:00Z', '0000-01-01T00:00:00Z'];

  type Send = (stamp: string) => { http: [string, string, object]; grpc: [string, object] };
  const inputs: [string, string, Send][] = [
    [
      'a timer',
      'fire_at',
      (fire_at) => ({ http: ['POST', 'timers', { fire_at }], grpc: ['CreateTimer', { fire_at }] }),
    ],
    [
      'a timer wait',
      'fire_at',
      (fire_at) => ({
        http: ['POST', 'waits', { wake: 'timer', reason: 'later', fire_at }],
        grpc: ['WaitFor', { wake: 'timer', reason: 'later', fire_at }],
      }),
    ],
    [
      'a work item deadline',
      'recheck_at',
      (recheck_at) => ({
        http: ['PATCH', `work-items/${itemId}`, { recheck_at }],
        grpc: ['UpdateWorkItem', { work_item_id: itemId, recheck_at }],
      }),
    ],
  ];
  const cases = inputs.flatMap(([what, field, send]) =>
    IMPOSSIBLE.map((stamp) => [what, stamp, field, send] as [string, string, string, Send]),
  );

  it.each(cases)('refuses %s at %s with 400 naming %s, and writes nothing', async (_what, stamp, field, send) => {
    const before = await s.written(s.mine);
    const [method, path, body] = send(stamp).http;
    const reply = await s.scoped(method, `${s.base}/${path}`, body);
    expect({ status: reply.status, error: reply.body.error?.code, details: reply.body.error?.details }).toEqual({
      status: 400,
      error: 'validation_failed',
      details: expect.objectContaining({ field, rule: 'invalid_timestamp' }),
    });
    expect(await s.written(s.mine)).toBe(before);
  });

  it.each(cases)(
    'refuses %s at %s with INVALID_ARGUMENT naming %s, and writes nothing',
    async (_what, stamp, field, send) => {
      const before = await s.written(s.mine);
      const [method, request] = send(stamp).grpc;
      const refusal = refusalOf(await rpc(method, request));
      expect({ code: refusal.code, errorCode: refusal.errorCode, details: refusal.details }).toEqual({
        code: GrpcStatus.INVALID_ARGUMENT,
        errorCode: 'validation_failed',
        details: expect.objectContaining({ field, rule: 'invalid_timestamp' }),
      });
      expect(await s.written(s.mine)).toBe(before);
    },
  );

  it('stores a stamp with an offset as the same instant in UTC, every fractional digit kept', async () => {
    const http = await s.scoped('POST', `${s.base}/timers`, { fire_at: '2098-03-01T01:30:00.123456789+02:00' });
    expect(http.status).toBe(201);
    expect(http.body.timer.fire_at).toBe('2098-02-28T23:30:00.123456789Z');
    const viaGrpc = await rpc('CreateTimer', { fire_at: '2096-03-01T00:00:00.5-00:30' });
    expect(viaGrpc.error).toBeNull();
    expect(viaGrpc.reply.timer.fire_at).toBe('2096-03-01T00:30:00.5Z');
    const leap = await s.scoped('PATCH', `${s.base}/work-items/${itemId}`, { recheck_at: '2096-02-29T00:00:00Z' });
    expect(leap.status).toBe(200);
    expect(leap.body.work_item.recheck_at).toBe('2096-02-29T00:00:00Z');
  });
});
