import { status as GrpcStatus } from '@grpc/grpc-js';
import { startTestApp, type TestApp } from '../../support/app';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { freshId } from '../../support/postgres';
import { probe, secret } from './support/world';

/**
 * Issue 14 item 7: after 10 failed logins (401) in a minute from one client address, that
 * address gets 429 rate_limited with Retry-After for a minute (gRPC: RESOURCE_EXHAUSTED, by peer
 * address), while other addresses are still served; X-Forwarded-For names the client only when
 * the peer is in TRUSTED_PROXIES.
 */
describe('the failed-login throttle', () => {
  const agent = freshId('throttle');
  const token = secret('tok-good');
  const tokens = `${token}=${agent}`;
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string>) => {
    const app = await startTestApp({ tokens, env: { RUNTIME_LOGIN_THROTTLE: '10/60', ...env } });
    apps.push(app);
    if (apps.length === 1) {
      const registered = await probe(app, 'POST', '/v1/agents', `Bearer ${token}`, JSON.stringify({ agent_id: agent }));
      expect(registered.status).toBeLessThan(300);
    }
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const get = (app: TestApp, bearer: string, forwardedFor?: string) =>
    probe(
      app,
      'GET',
      `/v1/agents/${agent}/work-items`,
      `Bearer ${bearer}`,
      undefined,
      forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    );
  const fail10 = async (app: TestApp, forwardedFor: (i: number) => string | undefined) => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await get(app, secret('wrong'), forwardedFor(i))).status);
    return statuses;
  };

  describe('behind a trusted proxy (TRUSTED_PROXIES=loopback)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await start({ TRUSTED_PROXIES: 'loopback' });
    });

    it('answers the 11th bad token from one client 429 with Retry-After, while another client still gets 401 and 200', async () => {
      expect(await fail10(app, () => '198.51.100.7')).toEqual(Array(10).fill(401));
      const locked = await get(app, secret('wrong'), '198.51.100.7');
      expect(locked.status).toBe(429);
      expect(locked.json.error).toMatchObject({ code: 'rate_limited', details: { reason: 'failed_logins' } });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
      expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // Even a valid token: the lock must not tell a right guess from a wrong one.
      expect((await get(app, token, '198.51.100.7')).status).toBe(429);
      expect((await get(app, secret('wrong'), '198.51.100.8')).status).toBe(401);
      expect((await get(app, token, '198.51.100.8')).status).toBe(200);
      expect((await get(app, token)).status).toBe(200);
      expect(
        (await probe(app, 'GET', '/health', undefined, undefined, { 'x-forwarded-for': '198.51.100.7' })).status,
      ).toBe(200);
    });
  });

  describe('without TRUSTED_PROXIES', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await start({});
    });

    it('ignores X-Forwarded-For: failures "from" ten addresses lock the peer, and gRPC from that peer too', async () => {
      expect(await fail10(app, (i) => `203.0.113.${i + 1}`)).toEqual(Array(10).fill(401));
      const locked = await get(app, token, '203.0.113.200');
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).not.toBeNull();
      const grpc = runtimeGrpcClient(app);
      try {
        const refusal = refusalOf(await grpc.call('ListWorkItems', { agent_id: agent }, token));
        expect(refusal).toMatchObject({ code: GrpcStatus.RESOURCE_EXHAUSTED, errorCode: 'rate_limited' });
      } finally {
        grpc.close();
      }
    });
  });

  describe('over gRPC', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await start({});
    });

    it('counts UNAUTHENTICATED calls by peer address: the 11th is RESOURCE_EXHAUSTED rate_limited with retry-after', async () => {
      const grpc = runtimeGrpcClient(app);
      try {
        const codes: number[] = [];
        for (let i = 0; i < 10; i++)
          codes.push((await grpc.call('ListWorkItems', { agent_id: agent }, secret('wrong'))).error?.code ?? 0);
        expect(codes).toEqual(Array(10).fill(GrpcStatus.UNAUTHENTICATED));
        const locked = await grpc.call('ListWorkItems', { agent_id: agent }, secret('wrong'));
        expect(refusalOf(locked)).toMatchObject({ code: GrpcStatus.RESOURCE_EXHAUSTED, errorCode: 'rate_limited' });
        expect(Number(locked.error!.metadata.get('retry-after')[0])).toBeGreaterThan(0);
      } finally {
        grpc.close();
      }
    });
  });
});
