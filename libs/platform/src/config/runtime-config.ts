import { isAbsolute, resolve } from 'node:path';
import { ApiTokenGrant, ApiTokensError, parseApiTokens, parseArchiveCompletedAfter } from '@app/application';
import {
  LOGIN_THROTTLE_ENV,
  parseLoginThrottle,
  parseTrustedProxies,
  type LoginThrottlePolicy,
} from '../security/login-throttle-policy';
import { DEFAULT_RATE_LIMIT, parseRateLimit, RATE_LIMIT_ENV, type RateLimitPolicy } from '../security/rate-limiter';
import { loadTracingConfig, type TracingConfig } from '../tracing/tracing-config';

export const RUNTIME_ROLES = ['all', 'api', 'projector', 'scheduler'] as const;
/** `all`, one part, or a comma-separated list of parts (`api,projector`). */
export type RuntimeRole = (typeof RUNTIME_ROLES)[number] | `${string},${string}`;
const ROLE_PARTS = ['api', 'projector', 'scheduler'] as const;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The process configuration, read once from the environment (README, Configuration). */
export interface RuntimeConfig {
  /** HTTP port; 0 asks the OS for a free one (tests). */
  readonly port: number;
  readonly grpcPort: number;
  /** GRPC_REFLECTION=true: the gRPC server reflection service (grpc.reflection.v1) is served; off by default. */
  readonly grpcReflection?: boolean;
  /**
   * Interface both servers bind to: 127.0.0.1 by default (the all-in-one serves this machine
   * only); the container image sets 0.0.0.0.
   */
  readonly host: string;
  /** Absolute. Holds `pg/` (embedded Postgres) and `admin-token`. */
  readonly dataDir: string;
  /** Absolute root of the agents' homes (plan artifacts). */
  readonly agentHome: string;
  /** External Postgres; null: embedded Postgres in `<dataDir>/pg`. */
  readonly databaseUrl: string | null;
  /** EventStoreDB/KurrentDB; null: the Postgres event store. */
  readonly eventStoreConnectionString: string | null;
  /** Parsed RUNTIME_API_TOKENS; null: a generated admin token in `<dataDir>/admin-token`. */
  readonly apiTokens: readonly ApiTokenGrant[] | null;
  /** RUNTIME_API_TOKENS_FILE, absolute (JSON, reloaded on change or SIGHUP); undefined: unset. */
  readonly apiTokensFile?: string;
  /** TRUSTED_PROXIES: addresses/CIDRs whose X-Forwarded-For names the client; undefined: none. */
  readonly trustedProxies?: readonly string[];
  /** RUNTIME_LOGIN_THROTTLE; null: off; undefined: unset, the default (DEFAULT_LOGIN_THROTTLE). */
  readonly loginThrottle?: LoginThrottlePolicy | null;
  /** RUNTIME_RATE_LIMIT, per token over both transports; null: off; unset or blank: DEFAULT_RATE_LIMIT (200/2). */
  readonly rateLimit: RateLimitPolicy | null;
  readonly role: RuntimeRole;
  readonly logLevel: LogLevel;
  /**
   * READY_MAX_LAG_SECONDS: GET /health/ready (and `cli check`) fail while events wait on a
   * projection checkpoint that has not moved for longer (unset: the default, 30 s).
   */
  readonly readyMaxLagSeconds?: number;
  /** Parsed TASK_EXPECTED_DURATIONS: a task's default lease (ms) by kind, `*` for any kind; {} when unset. */
  readonly taskExpectedDurations: Readonly<Record<string, number>>;
  /** MIN_POSITION_WAIT_MS: how long a read with `min_position` waits for the read models (unset: 5000). */
  readonly minPositionWaitMs?: number;
  /** ACTIVATION_WAITERS_MAX: long-poll activations (`wait_ms`) waiting at once in this process; unset: 5000. */
  readonly activationWaitersMax?: number;
  /** ACTIVATION_WAITERS_PER_TOKEN: ... and per token; unset: 1000. */
  readonly activationWaitersPerToken?: number;
  /** REMINDER_ROUNDS_WITHOUT_CHANGE: assistant rounds without a work-item mutation before a reminder (0: off; unset: 10). */
  readonly reminderRoundsWithoutChange?: number;
  /** REMINDER_STALE_TODO_ROUNDS: rounds an `in_progress` todo may stay unchanged before a reminder (0: off; unset: 20). */
  readonly reminderStaleTodoRounds?: number;
  /** ARCHIVE_COMPLETED_AFTER (e.g. `30d`) in ms: the scheduler process archives completed items older than that; null: off (the default). */
  readonly archiveCompletedAfterMs?: number | null;
  /** METRICS_PORT: GET /metrics on a listener of its own, without a token (ADR 0032); unset: on the main port. */
  readonly metricsPort?: number;
  /** METRICS_TOKEN: the bearer GET /metrics on the main port asks for instead of an admin token; never echoed. */
  readonly metricsToken?: string;
  /** REFUSALS_RETAIN_ROWS: the newest refusals the audit keeps (unset: 10 000). */
  readonly refusalsRetainRows?: number;
  /** The OTEL_* variables (docs/decisions/0033); undefined: tracing off, no SDK started. */
  readonly tracing?: TracingConfig;
  /** DELEGATION_FLAG_AFTER_MS: a delegation whose counterpart event is missing this long is flagged; unset: 30000. */
  readonly delegationFlagAfterMs?: number;
  /** STRANDED_RUNNABLE_AFTER_MS: runnable work without a decision this long is stranded (ADR 0036; unset: 60000). */
  readonly strandedRunnableAfterMs?: number;
  /** STRANDED_HOST_AFTER_MS: a due model turn no agent host took this long is stranded (unset: 60000). */
  readonly strandedHostAfterMs?: number;
  /** STRANDED_OVERDUE_GRACE_MS: a timer, turn lease or task lease this long past due is stranded (unset: 30000). */
  readonly strandedOverdueGraceMs?: number;
  /** SCHEDULER_SHARDS: agents hash to this many scheduler shards (1..65536; unset: 256); the same on every replica. */
  readonly schedulerShards?: number;
  /** AGENT_CACHE_MAX_MB: the command side's in-memory agent cache holds about this many MiB of states (1..1048576); unset: 256. */
  readonly agentCacheMaxMb?: number;
  /** SCHEDULER_LEASE_TTL_MS: a scheduler replica that stops renewing loses its shards after this (500..600000; unset: 10000). */
  readonly schedulerLeaseTtlMs?: number;
  /** PROJECTOR_LEASE_TTL_MS: a standby projector takes over this long after the active one stopped renewing (unset: 10000). */
  readonly projectorLeaseTtlMs?: number;
}

export type Environment = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const EVENTSTORE_URL = /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//i;

/**
 * Pure: reads `env`, resolves relative paths against `cwd`, and throws one ConfigError
 * naming every invalid variable. An empty value counts as unset. Secrets are never echoed.
 */
export function loadConfig(env: Environment, cwd: string = process.cwd()): RuntimeConfig {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const port = (name: string, fallback: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(value) || value > 65535) {
      problems.push(`${name} must be an integer port between 0 and 65535, got '${raw}'`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name} must be one of ${allowed.join(', ')}, got '${raw}'`);
    return fallback;
  };
  const url = (name: string, pattern: RegExp, expected: string): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    if (pattern.test(raw)) return raw;
    problems.push(`${name} must be ${expected} (value not shown: it may hold a password)`);
    return null;
  };
  const tokens = (): ApiTokenGrant[] | null => {
    const raw = read('RUNTIME_API_TOKENS');
    if (raw === undefined) return null;
    try {
      return parseApiTokens(raw);
    } catch (error) {
      if (!(error instanceof ApiTokensError)) throw error;
      problems.push(error.message);
      return null;
    }
  };
  const tokensFile = (): string | undefined => {
    const raw = read('RUNTIME_API_TOKENS_FILE');
    if (raw === undefined) return undefined;
    if (read('RUNTIME_API_TOKENS') !== undefined)
      problems.push('RUNTIME_API_TOKENS and RUNTIME_API_TOKENS_FILE are both set: set one of them');
    return absolute(raw);
  };
  const proxies = (): string[] | undefined => {
    const raw = read('TRUSTED_PROXIES');
    if (raw === undefined) return undefined;
    try {
      return parseTrustedProxies(raw);
    } catch (error) {
      problems.push((error as Error).message);
      return [];
    }
  };
  const throttle = (): LoginThrottlePolicy | null | undefined => {
    const raw = read(LOGIN_THROTTLE_ENV);
    if (raw === undefined) return undefined;
    try {
      return parseLoginThrottle(raw);
    } catch (error) {
      problems.push((error as Error).message);
      return null;
    }
  };
  const rateLimit = (): RateLimitPolicy | null => {
    try {
      return parseRateLimit(read(RATE_LIMIT_ENV) ?? DEFAULT_RATE_LIMIT);
    } catch (error) {
      problems.push((error as Error).message);
      return null;
    }
  };
  const roleOf = (raw: string | undefined): RuntimeRole => {
    if (raw === undefined || raw === 'all') return 'all';
    const parts = raw.split(',').map((part) => part.trim());
    if (parts.length > 0 && parts.every((part) => (ROLE_PARTS as readonly string[]).includes(part)))
      return parts.join(',') as RuntimeRole;
    problems.push(
      `RUNTIME_ROLE must be one of ${RUNTIME_ROLES.join(', ')} (or a comma-separated list of ${ROLE_PARTS.join(', ')}), got '${raw}'`,
    );
    return 'all';
  };
  const seconds = (name: string): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    if (/^\d{1,9}$/.test(raw) && Number(raw) >= 1) return Number(raw);
    problems.push(`${name} must be a whole number of seconds (at least 1), got '${raw}'`);
    return undefined;
  };
  const between = (name: string, min: number, max: number, unit: string): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    if (/^\d{1,9}$/.test(raw) && Number(raw) >= min && Number(raw) <= max) return Number(raw);
    problems.push(`${name} must be a whole number of ${unit} (${min}..${max}), got '${raw}'`);
    return undefined;
  };
  const milliseconds = (name: string, max: number) => between(name, 0, max, 'milliseconds');
  const count = (name: string): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    if (/^\d{1,7}$/.test(raw) && Number(raw) >= 1) return Number(raw);
    problems.push(`${name} must be a whole number (at least 1), got '${raw}'`);
    return undefined;
  };
  const rounds = (name: string): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    if (/^\d{1,6}$/.test(raw)) return Number(raw);
    problems.push(`${name} must be a whole number of rounds (0: off), got '${raw}'`);
    return undefined;
  };
  const durations = (): Readonly<Record<string, number>> => {
    const raw = read('TASK_EXPECTED_DURATIONS');
    if (raw === undefined) return {};
    const parsed = parseTaskExpectedDurations(raw);
    if (typeof parsed === 'string') problems.push(`TASK_EXPECTED_DURATIONS ${parsed}`);
    return typeof parsed === 'string' ? {} : parsed;
  };
  const archiveAfter = (): number | null => {
    const raw = read('ARCHIVE_COMPLETED_AFTER');
    const parsed = raw === undefined ? null : parseArchiveCompletedAfter(raw);
    if (typeof parsed === 'string') problems.push(`ARCHIVE_COMPLETED_AFTER ${parsed}`);
    return typeof parsed === 'number' ? parsed : null;
  };
  const flag = (name: string): boolean | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    problems.push(`${name} must be true or false, got '${raw}'`);
    return undefined;
  };
  const secret = (name: string, minLength: number): string | undefined => {
    const raw = read(name);
    if (raw === undefined || raw.length >= minLength) return raw;
    problems.push(`${name} must be at least ${minLength} characters (value not shown)`);
    return undefined;
  };
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));

  const dataDir = absolute(read('RUNTIME_DATA_DIR') ?? './.runtime-data');
  const config: RuntimeConfig = {
    port: port('PORT', 3000),
    grpcPort: port('GRPC_PORT', 50051),
    grpcReflection: flag('GRPC_REFLECTION'),
    host: read('HOST') ?? '127.0.0.1',
    dataDir,
    agentHome: absolute(read('AGENT_HOME') ?? resolve(dataDir, 'agent-home')),
    databaseUrl: url('DATABASE_URL', POSTGRES_URL, 'a postgres:// or postgresql:// URL'),
    eventStoreConnectionString: url(
      'EVENTSTORE_CONNECTION_STRING',
      EVENTSTORE_URL,
      'an esdb:// (or kurrentdb://) connection string',
    ),
    apiTokens: tokens(),
    apiTokensFile: tokensFile(),
    trustedProxies: proxies(),
    loginThrottle: throttle(),
    rateLimit: rateLimit(),
    role: roleOf(read('RUNTIME_ROLE')),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    readyMaxLagSeconds: seconds('READY_MAX_LAG_SECONDS'),
    taskExpectedDurations: durations(),
    minPositionWaitMs: milliseconds('MIN_POSITION_WAIT_MS', 60_000),
    activationWaitersMax: count('ACTIVATION_WAITERS_MAX'),
    activationWaitersPerToken: count('ACTIVATION_WAITERS_PER_TOKEN'),
    reminderRoundsWithoutChange: rounds('REMINDER_ROUNDS_WITHOUT_CHANGE'),
    reminderStaleTodoRounds: rounds('REMINDER_STALE_TODO_ROUNDS'),
    metricsPort: read('METRICS_PORT') === undefined ? undefined : port('METRICS_PORT', 0),
    metricsToken: secret('METRICS_TOKEN', 16),
    refusalsRetainRows: count('REFUSALS_RETAIN_ROWS'),
    tracing: loadTracingConfig(read, problems) ?? undefined,
    delegationFlagAfterMs: milliseconds('DELEGATION_FLAG_AFTER_MS', 86_400_000),
    strandedRunnableAfterMs: milliseconds('STRANDED_RUNNABLE_AFTER_MS', 86_400_000),
    strandedHostAfterMs: milliseconds('STRANDED_HOST_AFTER_MS', 86_400_000),
    strandedOverdueGraceMs: milliseconds('STRANDED_OVERDUE_GRACE_MS', 86_400_000),
    schedulerShards: between('SCHEDULER_SHARDS', 1, 65_536, 'shards'),
    agentCacheMaxMb: between('AGENT_CACHE_MAX_MB', 1, 1_048_576, 'MiB'),
    schedulerLeaseTtlMs: between('SCHEDULER_LEASE_TTL_MS', 500, 600_000, 'milliseconds'),
    projectorLeaseTtlMs: between('PROJECTOR_LEASE_TTL_MS', 500, 600_000, 'milliseconds'),
  };
  const archiveCompletedAfterMs = archiveAfter();
  if (archiveCompletedAfterMs !== null) Object.assign(config, { archiveCompletedAfterMs });
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * `kind=ms;kind=ms;*=ms` (`*`: any other kind), each 1000..604800000 ms (a task lease's range):
 * the parsed map, or the problem as a sentence.
 */
export function parseTaskExpectedDurations(raw: string): Record<string, number> | string {
  const map: Record<string, number> = {};
  for (const entry of raw
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const match = /^([^=]+)=(\d+)$/.exec(entry);
    const ms = match ? Number(match[2]) : NaN;
    if (!match || ms < 1000 || ms > 604_800_000) {
      return `must be kind=ms pairs separated by ';' (1000..604800000 ms each), got '${entry}'`;
    }
    map[match[1].trim()] = ms;
  }
  return map;
}

/** Which parts a role runs. */
export function roleRuns(role: RuntimeRole): { api: boolean; projector: boolean; scheduler: boolean } {
  const parts = new Set(role === 'all' ? ROLE_PARTS : role.split(','));
  return { api: parts.has('api'), projector: parts.has('projector'), scheduler: parts.has('scheduler') };
}
