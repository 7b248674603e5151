import {
  DEFAULT_REMINDER_SETTINGS,
  DEFAULT_STRANDED_THRESHOLDS,
  type ReminderSettings,
  type StrandedThresholds,
} from '@app/domain';
import type { ApiTokenGrant } from './auth/api-tokens';

/**
 * What the application reads of the process configuration. libs/platform provides it from
 * its RuntimeConfig (which has these fields), so the application never imports the platform.
 */
export interface ApplicationSettings {
  /** Parsed RUNTIME_API_TOKENS; null: a generated admin token in `<dataDir>/admin-token`. */
  readonly apiTokens: readonly ApiTokenGrant[] | null;
  /** RUNTIME_API_TOKENS_FILE (absolute), read at start and reloaded on change or SIGHUP; null: unset. */
  readonly apiTokensFile?: string | null;
  /** Absolute. Holds `admin-token`. */
  readonly dataDir: string;
  /** Absolute root of the agents' homes (plan artifacts). */
  readonly agentHome: string;
  /** A task's default lease (`expected_duration_ms`) by kind, `*` for any other kind (TASK_EXPECTED_DURATIONS). */
  readonly taskExpectedDurations: Readonly<Record<string, number>>;
  /** How long a read with `min_position` waits for the read models before 503 `read_model_lagging` (MIN_POSITION_WAIT_MS; default 5000). */
  readonly minPositionWaitMs?: number;
  /** ACTIVATION_WAITERS_MAX: long-poll activations waiting at once in this process; undefined: the default. */
  readonly activationWaitersMax?: number;
  /** ACTIVATION_WAITERS_PER_TOKEN: ... and per token; undefined: the default. */
  readonly activationWaitersPerToken?: number;
  /** REMINDER_ROUNDS_WITHOUT_CHANGE (0: off); undefined: the domain's default. */
  readonly reminderRoundsWithoutChange?: number;
  /** REMINDER_STALE_TODO_ROUNDS (0: off); undefined: the domain's default. */
  readonly reminderStaleTodoRounds?: number;
  /** ARCHIVE_COMPLETED_AFTER in ms: the scheduler process archives completed items older than that; null/undefined: off. */
  readonly archiveCompletedAfterMs?: number | null;
  /** DELEGATION_FLAG_AFTER_MS: a delegation whose counterpart event is missing this long is flagged; undefined: 30000. */
  readonly delegationFlagAfterMs?: number;
  /** STRANDED_RUNNABLE_AFTER_MS: runnable work without a decision this long is stranded; undefined: 60000. */
  readonly strandedRunnableAfterMs?: number;
  /** STRANDED_HOST_AFTER_MS: a model turn due that no agent host took this long is stranded; undefined: 60000. */
  readonly strandedHostAfterMs?: number;
  /** STRANDED_OVERDUE_GRACE_MS: a timer, turn lease or task lease this long past due is stranded; undefined: 30000. */
  readonly strandedOverdueGraceMs?: number;
  /** AGENT_CACHE_MAX_MB: the in-memory agent cache's bound in MiB of states (their JSON size); undefined: 256. */
  readonly agentCacheMaxMb?: number;
}

/** The reminder thresholds of these settings, the domain's defaults where unset. */
export function reminderSettings(settings?: ApplicationSettings): ReminderSettings {
  return {
    rounds_without_work_item_change:
      settings?.reminderRoundsWithoutChange ?? DEFAULT_REMINDER_SETTINGS.rounds_without_work_item_change,
    stale_todo_rounds: settings?.reminderStaleTodoRounds ?? DEFAULT_REMINDER_SETTINGS.stale_todo_rounds,
  };
}

/** The stranded-work delays of these settings (ADR 0036), the domain's defaults where unset. */
export function strandedThresholds(settings?: ApplicationSettings): StrandedThresholds {
  const d = DEFAULT_STRANDED_THRESHOLDS;
  return {
    runnable_after_ms: settings?.strandedRunnableAfterMs ?? d.runnable_after_ms,
    host_after_ms: settings?.strandedHostAfterMs ?? d.host_after_ms,
    overdue_grace_ms: settings?.strandedOverdueGraceMs ?? d.overdue_grace_ms,
    delegation_after_ms: settings?.delegationFlagAfterMs ?? d.delegation_after_ms,
  };
}

export const APPLICATION_SETTINGS = Symbol('APPLICATION_SETTINGS');
