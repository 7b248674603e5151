import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import { addMs } from '../timer/timer.time';
import {
  DELAY_OF_KIND,
  type DelegationFacts,
  type StrandedDelay,
  type StrandedKind,
  type StrandedSubject,
  type StrandingWatch,
  strandingWatches,
} from './stranded';

/** The delays of the stranded conditions (settings, docs/decisions/0036). */
export type StrandedThresholds = {
  /** STRANDED_RUNNABLE_AFTER_MS: runnable work without the decision it calls for. */
  runnable_after_ms: number;
  /** STRANDED_HOST_AFTER_MS: a decided model turn that no agent host has activated. */
  host_after_ms: number;
  /** STRANDED_OVERDUE_GRACE_MS: a timer, a turn lease or a task lease past due. */
  overdue_grace_ms: number;
  /** DELEGATION_FLAG_AFTER_MS: a delegation's counterpart event missing (ADR 0031). */
  delegation_after_ms: number;
};

export const DEFAULT_STRANDED_THRESHOLDS: StrandedThresholds = {
  runnable_after_ms: 60_000,
  host_after_ms: 60_000,
  overdue_grace_ms: 30_000,
  delegation_after_ms: 30_000,
};

export function delayMs(delay: StrandedDelay, thresholds: StrandedThresholds): number {
  switch (delay) {
    case 'runnable':
      return thresholds.runnable_after_ms;
    case 'host':
      return thresholds.host_after_ms;
    case 'overdue':
      return thresholds.overdue_grace_ms;
    case 'delegation':
      return thresholds.delegation_after_ms;
    default:
      return 0;
  }
}

/** The instant from which the watch counts as stranded: `since` plus its kind's delay. */
export const strandedAt = (watch: Pick<StrandingWatch, 'kind' | 'since'>, thresholds: StrandedThresholds): string =>
  addMs(watch.since, delayMs(DELAY_OF_KIND[watch.kind], thresholds));

/**
 * Whether the counterpart's facts hold the watch back: a delegation watch is stranded only while
 * the counterpart lacks the record (`record`) or has not ended it (`end`). `facts` null: the
 * counterpart agent has no stream.
 */
export function counterpartHolds(watch: StrandingWatch, facts: DelegationFacts | null): boolean {
  if (watch.counterpart === null) return false;
  const known = facts === null ? undefined : facts[watch.counterpart.delegation_id];
  return watch.counterpart.requires === 'record' ? known !== undefined : known !== 'open';
}

/** One stranded entry as `GET /v1/stranded` shows it. */
export type StrandedEntry = {
  agent_id: string;
  kind: StrandedKind;
  subject: StrandedSubject;
  evidence: string[];
  since: string;
  stranded_at: string;
  /** now - stranded_at, milliseconds (>= 0). */
  age_ms: number;
};

export function toStrandedEntry(
  agentId: string,
  watch: StrandingWatch,
  thresholds: StrandedThresholds,
  now: string,
): StrandedEntry {
  const at = strandedAt(watch, thresholds);
  return {
    agent_id: agentId,
    kind: watch.kind,
    subject: watch.subject,
    evidence: watch.evidence,
    since: watch.since,
    stranded_at: at,
    age_ms: Math.max(0, Date.parse(now) - Date.parse(at)),
  };
}

/**
 * The agent's stranded work at `now` (the state reached at `asOf`): its watches whose delay has
 * passed, but for delegation watches its counterparts hold back (`counterparts`: an agent's
 * delegation facts, null when it has no stream). Oldest stranded first.
 */
export function strandedWork(
  state: AgentState,
  asOf: string,
  thresholds: StrandedThresholds,
  now: string,
  counterparts: (agentId: string) => DelegationFacts | null = () => null,
): StrandedEntry[] {
  if (state.agent_id === null) return [];
  const agentId = state.agent_id;
  return strandingWatches(state, asOf)
    .filter((w) => compareInstants(strandedAt(w, thresholds), now) <= 0)
    .filter((w) => w.counterpart === null || !counterpartHolds(w, counterparts(w.counterpart.agent_id)))
    .map((w) => toStrandedEntry(agentId, w, thresholds, now))
    .sort((a, b) => compareInstants(a.stranded_at, b.stranded_at));
}
