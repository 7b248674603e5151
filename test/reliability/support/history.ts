import { isDeepStrictEqual } from 'node:util';
import { Pool } from 'pg';
import type { EventStore, StoredEvent } from '@app/event-store';
import { AGENT_STREAM_PREFIX, agentStream } from '@app/core';
import { READ_MODELS_PROJECTION } from '@app/read-models';
import { eventually, openTestEventStore, WaitTimeoutError } from '@app/event-store/testing';
import type { AckLog } from './ack-log';
import { readApplyLog } from './apply-log';
import { compareWithRebuild } from './read-models';

/**
 * The history checker: after a scenario, compares what the client was told (the AckLog) with
 * what the store, the projector and the read models hold. Every scenario of test/reliability
 * ends with it; the soak runner adds its counts up.
 */
export interface HistoryCheckInput {
  /** Connection string of the deployment (its search_path selects the schema). */
  url: string;
  log?: AckLog;
  /** The projection whose checkpoint must reach the head (default read_models; null: no projector ran). */
  projection?: string | null;
  /** Positions after `after` must each appear exactly once in reliability_apply_log. */
  applyLog?: { after: bigint } | null;
  /** Compare every read model with a from-scratch rebuild (default true when a projection is checked). */
  rebuild?: boolean;
  /** How long the projector and readAll may take to catch up with the head. */
  waitMs?: number;
}

export interface HistoryReport {
  streams: number;
  events: number;
  acked: number;
  /** Commands whose outcome the client could not know, and how many of them are stored. */
  unknown: number;
  unknownStored: number;
  /** Acknowledged commands missing from the store. */
  lost: number;
  /** Events stored twice, commands applied twice, positions applied twice by a projector. */
  duplicated: number;
  /** Events missing from the global order, positions a projector never applied. */
  skipped: number;
  /** Rows compared with the rebuild (0 when not compared). */
  rebuiltRows: number;
  problems: string[];
}

export async function checkHistory(input: HistoryCheckInput): Promise<HistoryReport> {
  const pool = new Pool({ connectionString: input.url, max: 4 });
  pool.on('error', () => undefined);
  const store = await openTestEventStore(pool, input.url, [AGENT_STREAM_PREFIX]);
  const report: HistoryReport = {
    streams: 0,
    events: 0,
    acked: 0,
    unknown: 0,
    unknownStored: 0,
    lost: 0,
    duplicated: 0,
    skipped: 0,
    rebuiltRows: 0,
    problems: [],
  };
  const problem = (text: string) => {
    if (report.problems.length < 50) report.problems.push(text);
  };
  const waitMs = input.waitMs ?? 20_000;
  try {
    const head = (await store.headPosition()) ?? -1n;
    const global = await readAllUpTo(store, head, waitMs);
    if (global.length > 0 && global[global.length - 1].position < head) {
      report.skipped += 1;
      problem(`readAll stops at ${global[global.length - 1].position} but the head is ${head}`);
    }
    report.events = global.length;

    // The global order: increasing positions, unique event ids.
    const seenIds = new Map<string, StoredEvent>();
    for (let i = 0; i < global.length; i++) {
      const event = global[i];
      if (i > 0 && event.position <= global[i - 1].position)
        problem(`readAll out of order: ${global[i - 1].position} then ${event.position}`);
      const twin = seenIds.get(event.id);
      if (twin) {
        report.duplicated += 1;
        problem(
          `event ${event.id} stored twice: ${twin.stream}@${twin.revision} and ${event.stream}@${event.revision}`,
        );
      }
      seenIds.set(event.id, event);
    }

    // Each stream: contiguous revisions, the same events as in the global order, in the same order.
    const byStream = new Map<string, StoredEvent[]>();
    for (const event of global) byStream.set(event.stream, [...(byStream.get(event.stream) ?? []), event]);
    for (const agent of input.log?.agents() ?? [])
      if (!byStream.has(agentStream(agent))) byStream.set(agentStream(agent), []);
    report.streams = byStream.size;
    const streams = new Map<string, StoredEvent[]>();
    for (const [stream, inGlobal] of byStream) {
      const events = (await store.readStream(stream)).filter((e) => e.position <= head);
      streams.set(stream, events);
      events.forEach((event, index) => {
        if (event.revision !== BigInt(index))
          problem(`${stream}: revision ${event.revision} at index ${index} (revisions not contiguous)`);
        if (index > 0 && event.position <= events[index - 1].position)
          problem(
            `${stream}: revision ${event.revision} has position ${event.position}, not after revision ${events[index - 1].revision}'s ${events[index - 1].position}`,
          );
      });
      const globalIds = new Set(inGlobal.map((e) => e.id));
      for (const event of events) {
        if (!globalIds.has(event.id)) {
          report.skipped += 1;
          problem(`${stream}@${event.revision} (position ${event.position}) is missing from the global order`);
        } else if (seenIds.get(event.id)!.position !== event.position) {
          problem(
            `${stream}@${event.revision}: position ${event.position} in the stream, ${seenIds.get(event.id)!.position} in the global order`,
          );
        }
      }
      if (inGlobal.length > events.length)
        problem(`${stream}: ${inGlobal.length} events in the global order, ${events.length} in the stream`);
      checkCommandGroups(stream, events, report, problem);
    }

    if (input.log) checkAcknowledgements(input.log, streams, report, problem);

    const projection = input.projection === undefined ? READ_MODELS_PROJECTION : input.projection;
    if (projection !== null) {
      const checkpoint = await waitForCheckpoint(pool, projection, head, waitMs);
      if (checkpoint < head) {
        const behind = global.filter((e) => e.position > checkpoint).length;
        report.skipped += behind;
        problem(`projection ${projection} stopped at ${checkpoint}, head ${head} (${behind} events not applied)`);
      }
      const { rows: letters } = await pool.query(
        'SELECT position::text, error FROM projection_dead_letters WHERE projection = $1 AND resolved_at IS NULL',
        [projection],
      );
      for (const letter of letters)
        problem(`projection ${projection} has an open dead letter at ${letter.position}: ${letter.error}`);
    }
    if (input.applyLog) {
      const applied = await readApplyLog(pool, input.applyLog.after);
      const expected = new Set(
        global.filter((e) => e.position > input.applyLog!.after).map((e) => e.position.toString()),
      );
      for (const entry of applied) {
        if (entry.times > 1) {
          report.duplicated += entry.times - 1;
          problem(`position ${entry.position} applied ${entry.times} times (by ${entry.runners.join(', ')})`);
        }
        if (!expected.delete(entry.position.toString()))
          problem(`position ${entry.position} applied but not in the store's global order`);
      }
      report.skipped += expected.size;
      if (expected.size > 0)
        problem(`${expected.size} positions never applied, e.g. ${[...expected].slice(0, 5).join(', ')}`);
    }
    if (projection !== null && input.rebuild !== false) {
      const comparison = await compareWithRebuild(input.url, store);
      report.rebuiltRows = comparison.rows;
      for (const difference of comparison.differences) problem(`read model differs from a rebuild: ${difference}`);
    }
    return report;
  } finally {
    await store.close();
    await pool.end();
  }
}

/** Throws with every problem listed when the report is not clean. */
export function assertCleanHistory(report: HistoryReport): void {
  if (report.problems.length === 0 && report.lost === 0 && report.duplicated === 0 && report.skipped === 0) return;
  throw new Error(
    `history check failed: lost ${report.lost}, duplicated ${report.duplicated}, skipped ${report.skipped}\n  ${report.problems.join('\n  ')}`,
  );
}

/** Every event up to `head`, waiting while older transactions elsewhere hold readAll's horizon back. */
async function readAllUpTo(store: EventStore, head: bigint, waitMs: number): Promise<StoredEvent[]> {
  const deadline = Date.now() + waitMs;
  const events: StoredEvent[] = [];
  let after = -1n;
  while (after < head) {
    const from = after;
    const read = () => store.readAll({ after_position: from < 0n ? undefined : from, max_count: 2000 });
    // What is missing is reported by the checker (skipped events), not thrown here.
    const page = await eventually(
      `readAll after ${from} to show events up to ${head}`,
      read,
      (next) => next.length > 0,
      {
        timeoutMs: Math.max(0, deadline - Date.now()),
        intervalMs: 25,
      },
    ).catch((error: unknown) => soft(error, [] as StoredEvent[]));
    const upTo = page.filter((e) => e.position <= head);
    events.push(...upTo);
    if (upTo.length > 0) after = upTo[upTo.length - 1].position;
    if (upTo.length < page.length || page.length === 0) break;
  }
  return events;
}

/** Every command id occupies one contiguous run of revisions: two runs would be a command applied twice. */
function checkCommandGroups(
  stream: string,
  events: StoredEvent[],
  report: HistoryReport,
  problem: (text: string) => void,
): void {
  const runs = new Map<string, number>();
  let previous: string | undefined;
  for (const event of events) {
    const id = typeof event.metadata.command_id === 'string' ? event.metadata.command_id : undefined;
    if (id !== undefined && id !== previous) {
      const count = (runs.get(id) ?? 0) + 1;
      runs.set(id, count);
      if (count > 1) {
        report.duplicated += 1;
        problem(`${stream}: command ${id} applied again at revision ${event.revision}`);
      }
    }
    previous = id;
  }
}

/**
 * A repeat answers the first reply, but for `position`: a replayed command answers the position of
 * the agent's last event (docs/api.md, "Consistency of reads"), at or past the first reply's.
 */
function withoutPosition(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('position' in body)) return body;
  const { position: _position, ...rest } = body as Record<string, unknown>;
  return rest;
}

function positionNotBefore(repeat: unknown, first: unknown): boolean {
  const positionOf = (body: unknown) =>
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).position : undefined;
  const [later, earlier] = [positionOf(repeat), positionOf(first)];
  if (typeof later !== 'string' || typeof earlier !== 'string') return later === earlier;
  return BigInt(later) >= BigInt(earlier);
}

function checkAcknowledgements(
  log: AckLog,
  streams: Map<string, StoredEvent[]>,
  report: HistoryReport,
  problem: (text: string) => void,
): void {
  for (const record of log.all()) {
    const events = (streams.get(agentStream(record.agent)) ?? []).filter((e) => e.metadata.command_id === record.key);
    const answers = record.replies.filter((r) => r.status !== null && r.status >= 200 && r.status < 300);
    for (const answer of answers.slice(1)) {
      if (
        answer.status !== answers[0].status ||
        !isDeepStrictEqual(withoutPosition(answer.body), withoutPosition(answers[0].body)) ||
        !positionNotBefore(answer.body, answers[0].body)
      ) {
        problem(
          `command ${record.key}: a repeat answered differently (${answers[0].status} ${JSON.stringify(answers[0].body)} then ${answer.status} ${JSON.stringify(answer.body)})`,
        );
      }
    }
    if (record.outcome === 'acked') {
      report.acked += 1;
      if (record.appends && events.length === 0) {
        report.lost += 1;
        problem(
          `acknowledged command ${record.key} (${record.method} ${record.path}, revision ${record.revision}) is not stored`,
        );
      } else if (
        events.length > 0 &&
        record.revision !== null &&
        events[events.length - 1].revision !== record.revision
      ) {
        problem(
          `command ${record.key}: acknowledged revision ${record.revision}, stored at ${events[0].revision}..${events[events.length - 1].revision}`,
        );
      }
    } else if (record.outcome === 'unknown') {
      report.unknown += 1;
      if (events.length > 0) report.unknownStored += 1;
    } else if (events.length > 0) {
      problem(`command ${record.key} was refused (${record.status}) but ${events.length} events carry its id`);
    }
  }
}

/** The projection's checkpoint once it has reached `head`, or where it stopped (the checker reports it). */
async function waitForCheckpoint(pool: Pool, projection: string, head: bigint, waitMs: number): Promise<bigint> {
  const checkpoint = async () => {
    const { rows } = await pool.query(
      'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1',
      [projection],
    );
    return rows.length ? BigInt(rows[0].position) : -1n;
  };
  return eventually(`projection ${projection} to reach the head ${head}`, checkpoint, (position) => position >= head, {
    timeoutMs: waitMs,
    intervalMs: 50,
  }).catch((error: unknown) => soft(error, -1n));
}

/** A wait that timed out gives its last value (the checker turns it into a problem); any other error is thrown. */
function soft<T>(error: unknown, none: T): T {
  if (error instanceof WaitTimeoutError) return (error.last as T | undefined) ?? none;
  throw error;
}
