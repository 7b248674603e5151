import {
  CANDIDATE_KEYS,
  CANDIDATE_RANKING,
  type CandidateClass,
  type RankedClass,
  type SortKey,
} from '../views/candidate-ranking';
import { DEFAULT_SCHEDULER_SETTINGS, type SchedulerSettings } from './scheduler-settings';
import { LEASE_TTL_MAX_MS, LEASE_TTL_MIN_MS } from '../turn/turn.validation';

/*
 * A what-if policy file (docs/decisions/0037, docs/api.md "CLI: what-if"): JSON, every field
 * optional (an absent one keeps the runtime's setting), unknown fields refused.
 *
 *   { "ranking": [{ "class": "queued_runnable", "keys": [{ "field": "updated_at", "direction": "desc" }] }, ...],
 *     "lease_ttl_ms": 30000,
 *     "recheck": { "enabled": true, "delay_ms": 0 } }
 *
 * `ranking` lists every candidate class once, in the order wanted; a class without `keys` keeps
 * its own; keys that do not end with `id` get `id` ascending appended (the order must be total).
 */

export type PolicyParse = { ok: true; settings: SchedulerSettings } | { ok: false; errors: string[] };

const CLASSES = CANDIDATE_RANKING.map((ranked) => ranked.class);
const FIELDS = ['last_triggered_at', 'updated_at', 'created_at', 'id'];
const RECHECK_DELAY_MAX_MS = 7 * 24 * 3_600_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownFields(value: Record<string, unknown>, allowed: string[], at: string, errors: string[]): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) errors.push(`${at}.${key}: unknown field (allowed: ${allowed.join(', ')})`);
}

function parseKey(value: unknown, at: string, errors: string[]): SortKey | null {
  if (!isObject(value)) {
    errors.push(`${at}: a sort key is an object {field, direction[, nulls]}`);
    return null;
  }
  const before = errors.length;
  unknownFields(value, ['field', 'direction', 'nulls'], at, errors);
  const { field, direction, nulls } = value;
  if (typeof field !== 'string' || !FIELDS.includes(field)) errors.push(`${at}.field: one of ${FIELDS.join(', ')}`);
  if (direction !== 'asc' && direction !== 'desc') errors.push(`${at}.direction: asc or desc`);
  if (field === 'last_triggered_at' ? nulls !== 'first' && nulls !== 'last' : nulls !== undefined)
    errors.push(`${at}.nulls: first or last, and only for last_triggered_at (the one field that may be null)`);
  if (errors.length > before) return null;
  return (field === 'last_triggered_at' ? { field, direction, nulls } : { field, direction }) as SortKey;
}

function parseKeys(value: unknown, cls: CandidateClass, at: string, errors: string[]): readonly SortKey[] {
  if (value === undefined) return CANDIDATE_KEYS[cls];
  if (!Array.isArray(value) || value.length === 0) {
    errors.push(`${at}: a non-empty array of sort keys`);
    return CANDIDATE_KEYS[cls];
  }
  const before = errors.length;
  const keys = value.map((key, index) => parseKey(key, `${at}[${index}]`, errors));
  if (errors.length > before) return CANDIDATE_KEYS[cls];
  const fields = keys.map((key) => key!.field);
  if (new Set(fields).size !== fields.length) errors.push(`${at}: each field at most once`);
  return fields.includes('id') ? (keys as SortKey[]) : [...(keys as SortKey[]), { field: 'id', direction: 'asc' }];
}

function parseRanking(value: unknown, errors: string[]): readonly RankedClass[] {
  if (value === undefined) return CANDIDATE_RANKING;
  if (!Array.isArray(value)) {
    errors.push(`ranking: an array of {class[, keys]}, every class once: ${CLASSES.join(', ')}`);
    return CANDIDATE_RANKING;
  }
  const ranking = value.flatMap((entry: unknown, index): RankedClass[] => {
    const at = `ranking[${index}]`;
    if (!isObject(entry) || typeof entry.class !== 'string' || !CLASSES.includes(entry.class as CandidateClass)) {
      errors.push(`${at}.class: one of ${CLASSES.join(', ')}`);
      return [];
    }
    unknownFields(entry, ['class', 'keys'], at, errors);
    const cls = entry.class as CandidateClass;
    return [{ class: cls, keys: parseKeys(entry.keys, cls, `${at}.keys`, errors) }];
  });
  const named = ranking.map((ranked) => ranked.class);
  const missing = CLASSES.filter((cls) => !named.includes(cls));
  const twice = named.filter((cls, index) => named.indexOf(cls) !== index);
  if (missing.length > 0) errors.push(`ranking: every class once; missing ${missing.join(', ')}`);
  if (twice.length > 0) errors.push(`ranking: every class once; repeated ${[...new Set(twice)].join(', ')}`);
  return ranking;
}

function parseLease(value: unknown, errors: string[]): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || (value as number) < LEASE_TTL_MIN_MS || (value as number) > LEASE_TTL_MAX_MS) {
    errors.push(`lease_ttl_ms: null (each turn's own) or an integer ${LEASE_TTL_MIN_MS}..${LEASE_TTL_MAX_MS}`);
    return null;
  }
  return value as number;
}

function parseRecheck(value: unknown, errors: string[]): SchedulerSettings['recheck'] {
  const fallback = DEFAULT_SCHEDULER_SETTINGS.recheck;
  if (value === undefined) return fallback;
  if (!isObject(value)) {
    errors.push('recheck: an object {enabled?, delay_ms?}');
    return fallback;
  }
  unknownFields(value, ['enabled', 'delay_ms'], 'recheck', errors);
  const enabled = value.enabled ?? fallback.enabled;
  const delay = value.delay_ms ?? fallback.delay_ms;
  if (typeof enabled !== 'boolean') errors.push('recheck.enabled: true or false');
  if (!Number.isInteger(delay) || (delay as number) < 0 || (delay as number) > RECHECK_DELAY_MAX_MS)
    errors.push(`recheck.delay_ms: an integer 0..${RECHECK_DELAY_MAX_MS}`);
  return { enabled: enabled === true, delay_ms: Number.isInteger(delay) ? (delay as number) : 0 };
}

/** Reads a policy (parsed JSON): the settings it asks for, or every error found, each with its path. */
export function parseSchedulerPolicy(value: unknown): PolicyParse {
  if (!isObject(value))
    return { ok: false, errors: ['the policy is a JSON object {ranking?, lease_ttl_ms?, recheck?}'] };
  const errors: string[] = [];
  unknownFields(value, ['ranking', 'lease_ttl_ms', 'recheck'], 'policy', errors);
  const settings: SchedulerSettings = {
    ranking: parseRanking(value.ranking, errors),
    lease_ttl_ms: parseLease(value.lease_ttl_ms, errors),
    recheck: parseRecheck(value.recheck, errors),
  };
  return errors.length > 0 ? { ok: false, errors } : { ok: true, settings };
}
