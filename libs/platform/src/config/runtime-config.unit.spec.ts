import { ConfigError, loadConfig, roleRuns } from './runtime-config';
import { parseApiTokens } from '@app/application';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env, '/srv/app');
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig with an empty environment', () => {
  const config = loadConfig({}, '/srv/app');

  it('uses the defaults of the README configuration table', () => {
    expect(config).toEqual({
      port: 3000,
      grpcPort: 50051,
      host: '127.0.0.1',
      dataDir: '/srv/app/.runtime-data',
      agentHome: '/srv/app/.runtime-data/agent-home',
      databaseUrl: null,
      eventStoreConnectionString: null,
      apiTokens: null,
      role: 'all',
      logLevel: 'info',
      taskExpectedDurations: {},
      rateLimit: { requests: 200, seconds: 2 },
    });
  });

  it('reads RUNTIME_RATE_LIMIT (default 200/2, blank: the default, off: null)', () => {
    expect(loadConfig({ RUNTIME_RATE_LIMIT: '30/3' }, '/srv').rateLimit).toEqual({ requests: 30, seconds: 3 });
    expect(loadConfig({ RUNTIME_RATE_LIMIT: '  ' }, '/srv').rateLimit).toEqual({ requests: 200, seconds: 2 });
    expect(loadConfig({ RUNTIME_RATE_LIMIT: 'off' }, '/srv').rateLimit).toBeNull();
  });

  it('reads the bounds on waiting long-poll activations, and refuses one that is not a whole number', () => {
    const bounded = loadConfig({ ACTIVATION_WAITERS_MAX: '200', ACTIVATION_WAITERS_PER_TOKEN: '20' }, '/srv');
    expect(bounded).toMatchObject({ activationWaitersMax: 200, activationWaitersPerToken: 20 });
    expect(() => loadConfig({ ACTIVATION_WAITERS_MAX: '0' }, '/srv')).toThrow(/ACTIVATION_WAITERS_MAX/);
    expect(() => loadConfig({ ACTIVATION_WAITERS_PER_TOKEN: 'many' }, '/srv')).toThrow(/ACTIVATION_WAITERS_PER_TOKEN/);
  });

  it('reads the reminder thresholds in rounds (0: off), and refuses one that is not a whole number', () => {
    expect(loadConfig({ REMINDER_ROUNDS_WITHOUT_CHANGE: '6', REMINDER_STALE_TODO_ROUNDS: '0' }, '/srv')).toMatchObject({
      reminderRoundsWithoutChange: 6,
      reminderStaleTodoRounds: 0,
    });
    expect(() => loadConfig({ REMINDER_ROUNDS_WITHOUT_CHANGE: '-1' }, '/srv')).toThrow(
      /REMINDER_ROUNDS_WITHOUT_CHANGE/,
    );
    expect(() => loadConfig({ REMINDER_STALE_TODO_ROUNDS: 'often' }, '/srv')).toThrow(/REMINDER_STALE_TODO_ROUNDS/);
  });

  it('reads TASK_EXPECTED_DURATIONS as default task leases by kind, and refuses a malformed one', () => {
    expect(loadConfig({ TASK_EXPECTED_DURATIONS: 'build=600000; *=900000' }, '/srv').taskExpectedDurations).toEqual({
      build: 600_000,
      '*': 900_000,
    });
    expect(() => loadConfig({ TASK_EXPECTED_DURATIONS: 'build=5' }, '/srv')).toThrow(/TASK_EXPECTED_DURATIONS/);
    expect(() => loadConfig({ TASK_EXPECTED_DURATIONS: 'build' }, '/srv')).toThrow(/TASK_EXPECTED_DURATIONS/);
  });
});

describe('GRPC_REFLECTION', () => {
  it('is off unless set to true, and refuses anything but true or false', () => {
    expect(loadConfig({}, '/srv').grpcReflection).toBeUndefined();
    expect(loadConfig({ GRPC_REFLECTION: 'true' }, '/srv').grpcReflection).toBe(true);
    expect(loadConfig({ GRPC_REFLECTION: 'false' }, '/srv').grpcReflection).toBe(false);
    expect(() => loadConfig({ GRPC_REFLECTION: 'yes' }, '/srv')).toThrow(/GRPC_REFLECTION must be true or false/);
  });
});

describe('loadConfig with every variable set', () => {
  it('reads and resolves them', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        GRPC_PORT: '0',
        RUNTIME_DATA_DIR: 'data',
        AGENT_HOME: '/homes',
        DATABASE_URL: 'postgresql://u:p@db:5432/x',
        EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
        RUNTIME_API_TOKENS: 'tok-a=agent-a|agent-b;tok-admin=*',
        RUNTIME_ROLE: 'projector',
        LOG_LEVEL: 'debug',
        HOST: '127.0.0.1',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 8080,
      grpcPort: 0,
      host: '127.0.0.1',
      dataDir: '/srv/app/data',
      agentHome: '/homes',
      databaseUrl: 'postgresql://u:p@db:5432/x',
      eventStoreConnectionString: 'esdb://localhost:2113?tls=false',
      role: 'projector',
      logLevel: 'debug',
    });
    expect(config.apiTokens).toEqual([
      { token: 'tok-a', name: 'token-1', agents: ['agent-a', 'agent-b'], admin: false },
      { token: 'tok-admin', name: 'token-2', agents: [], admin: true },
    ]);
  });

  it('derives AGENT_HOME from RUNTIME_DATA_DIR when only the latter is set', () => {
    expect(loadConfig({ RUNTIME_DATA_DIR: '/var/rt' }).agentHome).toBe('/var/rt/agent-home');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', RUNTIME_API_TOKENS: '  ', DATABASE_URL: '' }, '/x')).toMatchObject({
      port: 3000,
      apiTokens: null,
      databaseUrl: null,
    });
  });
});

describe('loadConfig with invalid values', () => {
  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer port between 0 and 65535, got 'abc'/],
    [{ PORT: '70000' }, /PORT must be an integer/],
    [{ GRPC_PORT: '-1' }, /GRPC_PORT must be an integer/],
    [
      { RUNTIME_ROLE: 'worker' },
      /RUNTIME_ROLE must be one of all, api, projector, scheduler \(or a comma-separated list of api, projector, scheduler\), got 'worker'/,
    ],
    [{ RUNTIME_ROLE: 'api,worker' }, /RUNTIME_ROLE must be one of/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/],
    [{ EVENTSTORE_CONNECTION_STRING: 'http://x' }, /EVENTSTORE_CONNECTION_STRING must be an esdb:\/\//],
    [{ RUNTIME_API_TOKENS: 'tok-a' }, /RUNTIME_API_TOKENS: entry 1 has no '='/],
    [{ RUNTIME_RATE_LIMIT: 'lots' }, /RUNTIME_RATE_LIMIT must be <requests>\/<seconds>/],
  ])('names the variable for %j', (env, message) => {
    expect(problemsOf(env).join('\n')).toMatch(message);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({ PORT: 'x', GRPC_PORT: 'y', RUNTIME_ROLE: 'z' })).toHaveLength(3);
  });

  it('never echoes a connection string, which may hold a password', () => {
    expect(problemsOf({ DATABASE_URL: 'mysql://user:s3cret@host/db' }).join('\n')).not.toContain('s3cret');
  });
});

describe('parseApiTokens', () => {
  it('accepts whitespace and a trailing separator', () => {
    expect(parseApiTokens(' tok-a = agent-a | agent-b ; ').map((g) => g.agents)).toEqual([['agent-a', 'agent-b']]);
  });

  it.each([
    ['', /lists no token/],
    ['=agent-a', /entry 1 has an empty token/],
    ['tok a=agent-a', /entry 1 has an empty token or one containing whitespace/],
    ['tok-a=', /entry 1 lists an empty agent id/],
    ['tok-a=agent-a||agent-b', /entry 1 lists an empty agent id/],
    ['tok-a=*|agent-a', /mixes '\*' with agent ids/],
    ['tok-a=agent a', /agent id 'agent a', which does not match/],
    ['tok-a=agent-a;tok-a=*', /entry 2 repeats the token/],
  ])('refuses %j', (spec, message) => {
    expect(() => parseApiTokens(spec)).toThrow(message);
  });

  it('never echoes a token in an error', () => {
    expect(() => parseApiTokens('s3cret-token=agent-a;s3cret-token=*')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cret') }),
    );
  });
});

describe('roleRuns', () => {
  it.each([
    ['all', { api: true, projector: true, scheduler: true }],
    ['api', { api: true, projector: false, scheduler: false }],
    ['projector', { api: false, projector: true, scheduler: false }],
    ['scheduler', { api: false, projector: false, scheduler: true }],
    ['api,projector', { api: true, projector: true, scheduler: false }],
  ] as const)('%s runs %j', (role, runs) => {
    expect(roleRuns(role)).toEqual(runs);
  });
});

describe('HOST', () => {
  it('defaults to the loopback (the all-in-one serves this machine only); 0.0.0.0 or :: bind every interface', () => {
    expect(loadConfig({}, '/srv/app').host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }, '/srv/app').host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::' }, '/srv/app').host).toBe('::');
  });
});

describe('the metrics settings (ADR 0032)', () => {
  it('reads METRICS_PORT (0: any free port), METRICS_TOKEN and REFUSALS_RETAIN_ROWS; all unset by default', () => {
    expect(loadConfig({}, '/srv')).toMatchObject({
      metricsPort: undefined,
      metricsToken: undefined,
      refusalsRetainRows: undefined,
    });
    expect(
      loadConfig(
        { METRICS_PORT: '9464', METRICS_TOKEN: 'scrape-token-0123456789', REFUSALS_RETAIN_ROWS: '500' },
        '/srv',
      ),
    ).toMatchObject({ metricsPort: 9464, metricsToken: 'scrape-token-0123456789', refusalsRetainRows: 500 });
    expect(loadConfig({ METRICS_PORT: '0' }, '/srv').metricsPort).toBe(0);
  });

  it('refuses a bad port, a short token (without echoing it) and a retention that is not a whole number', () => {
    const problems = problemsOf({ METRICS_PORT: '70000', METRICS_TOKEN: 'short-secret', REFUSALS_RETAIN_ROWS: '0' });
    expect(problems).toEqual([
      expect.stringContaining('METRICS_PORT'),
      'METRICS_TOKEN must be at least 16 characters (value not shown)',
      expect.stringContaining('REFUSALS_RETAIN_ROWS'),
    ]);
    expect(problems.join('\n')).not.toContain('short-secret');
  });
});
