import { ConfigError, loadConfig } from './runtime-config';

describe('the replica settings (ADR 0035)', () => {
  it('are unset by default: a lone process holds every lease with the defaults', () => {
    const config = loadConfig({}, '/srv');
    expect(config.schedulerShards).toBeUndefined();
    expect(config.schedulerLeaseTtlMs).toBeUndefined();
    expect(config.projectorLeaseTtlMs).toBeUndefined();
  });

  it('read SCHEDULER_SHARDS, SCHEDULER_LEASE_TTL_MS and PROJECTOR_LEASE_TTL_MS', () => {
    const config = loadConfig(
      { SCHEDULER_SHARDS: '64', SCHEDULER_LEASE_TTL_MS: '5000', PROJECTOR_LEASE_TTL_MS: '2500' },
      '/srv',
    );
    expect(config).toMatchObject({ schedulerShards: 64, schedulerLeaseTtlMs: 5000, projectorLeaseTtlMs: 2500 });
  });

  it('refuse values out of range, naming each variable', () => {
    let error: unknown;
    try {
      loadConfig({ SCHEDULER_SHARDS: '0', SCHEDULER_LEASE_TTL_MS: '100', PROJECTOR_LEASE_TTL_MS: 'soon' }, '/srv');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain("SCHEDULER_SHARDS must be a whole number of shards (1..65536), got '0'");
    expect(problems).toContain(
      "SCHEDULER_LEASE_TTL_MS must be a whole number of milliseconds (500..600000), got '100'",
    );
    expect(problems).toContain(
      "PROJECTOR_LEASE_TTL_MS must be a whole number of milliseconds (500..600000), got 'soon'",
    );
  });
});
