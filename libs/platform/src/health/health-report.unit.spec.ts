import { runHealthChecks } from './health-report';

describe('runHealthChecks', () => {
  it('is ok when every probe answers', async () => {
    await expect(
      runHealthChecks({ event_store: async () => undefined, postgres: async () => undefined }),
    ).resolves.toEqual({
      status: 'ok',
      checks: { event_store: 'up', postgres: 'up' },
      projection_lag: null,
    });
  });

  it('names the failing check', async () => {
    const report = await runHealthChecks({
      event_store: async () => Promise.reject(new Error('down')),
      postgres: async () => undefined,
    });
    expect(report).toEqual({
      status: 'unavailable',
      checks: { event_store: 'down', postgres: 'up' },
      projection_lag: null,
    });
  });

  it('counts a probe that hangs as down after the timeout', async () => {
    const report = await runHealthChecks({ postgres: () => new Promise<void>(() => undefined) }, 20);
    expect(report.checks.postgres).toBe('down');
  });
});
