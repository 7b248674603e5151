import { eventually } from '@app/event-store/testing';
import { type LeaseKeeper, PROJECTOR_LEASE } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { isolatedDatabaseUrl } from '../../support/postgres';

/**
 * ADR 0036 on the real runtime: /health/ready fails with lease_missing once this replica's
 * projector keeper has held nothing for a TTL while the lease lay free for over a TTL (a hung
 * keeper), and is ready again as soon as a round claims it back.
 */
describe('readiness from the leases this replica should hold', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      tokens: 'tok-admin=*',
      env: { DATABASE_URL: await isolatedDatabaseUrl('lease_ready'), PROJECTOR_LEASE_TTL_MS: '1000' },
    });
  });
  afterAll(() => app?.close());

  it('answers 503 lease_missing while a hung projector keeper lets its lease lie free, 200 once it claims it again', async () => {
    const anyone = httpClient(app);
    const ready = () => anyone('GET', '/health/ready');
    await eventually('ready', ready, (r) => r.status === 200, { timeoutMs: 10_000, intervalMs: 100 });
    const keeper = app.runtime.app.get<LeaseKeeper>(PROJECTOR_LEASE);
    keeper.suspend();
    const missing = await eventually('lease_missing', ready, (r) => r.status === 503, {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(missing.body.error).toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('holds no projector lease while 1 of 1 have been free for over 1000 ms'),
      details: { reason: 'lease_missing' },
    });
    await keeper.round();
    expect((await ready()).status).toBe(200);
  });
});
