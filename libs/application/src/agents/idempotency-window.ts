import type { RecentCommand, RecentCommands } from '@app/core';

/** The revisions of a command's events, and the fingerprint of the request that wrote them (none before it was kept). */
type Range = { readonly first: bigint; readonly last: bigint; readonly fingerprint?: string };
type Touch = readonly [string, Range];

export type IdempotencyWindowOptions = {
  /** How many command ids the window keeps (the newest by last touch). */
  limit?: number;
  /** How many touches are kept beside the settled map before they are folded into a new one. */
  compactAfter?: number;
};

/**
 * The idempotency window: the last N command ids applied to an agent, the revisions of their
 * events and the fingerprint of the request (docs/decisions/0016). Immutable; kept beside the
 * domain state (the domain never sees it).
 *
 * Every command adds one id, so copying the whole window per command (a Map of 1000) was a
 * fixed cost of every command (figure 3's profile: 8% of the server's time). The window is a
 * settled map (ids by last touch to their rank, the ranges in an array by rank) that is never
 * copied, plus the few touches since (an id at most once, newest last); every `compactAfter`
 * touches they are folded into a new settled map. Which settled ids the newer touches have
 * pushed out is computed from the ranks, so the window is exactly the newest `limit` ids at
 * every step. A settled map lives for `compactAfter` commands of its agent, long enough to
 * reach the old generation: its size per command is what the collector later has to mark and
 * sweep (no object per id beside the map's entry; docs/benchmarks.md, issue 18's p99).
 */
export class IdempotencyWindow {
  static readonly LIMIT = 1000;
  static readonly COMPACT_AFTER = 128;

  private constructor(
    private readonly limit: number,
    private readonly compactAfter: number,
    /** Each settled id's rank (0 = the oldest touch). */
    private readonly settled: ReadonlyMap<string, number>,
    /** The settled ranges, by rank. */
    private readonly ranges: readonly Range[],
    private readonly recent: readonly Touch[],
  ) {}

  private summary: { added: number; touchedRanks: number[] } | undefined;

  static empty(options: IdempotencyWindowOptions = {}): IdempotencyWindow {
    return IdempotencyWindow.settle(options, []);
  }

  static fromJSON(json: RecentCommands, options: IdempotencyWindowOptions = {}): IdempotencyWindow {
    return IdempotencyWindow.settle(
      options,
      json.map(([id, first, last, fingerprint]) => [id, range(BigInt(first), BigInt(last), fingerprint ?? undefined)]),
    );
  }

  /** A log whose window is the newest `limit` of `touches` (oldest first), all settled. */
  private static settle(options: IdempotencyWindowOptions, touches: readonly Touch[]): IdempotencyWindow {
    const limit = options.limit ?? IdempotencyWindow.LIMIT;
    const from = Math.max(0, touches.length - limit);
    const settled = new Map<string, number>();
    const ranges: Range[] = new Array<Range>(touches.length - from);
    for (let rank = 0; rank < ranges.length; rank++) {
      const [id, range] = touches[from + rank];
      settled.set(id, rank);
      ranges[rank] = range;
    }
    return new IdempotencyWindow(limit, options.compactAfter ?? IdempotencyWindow.COMPACT_AFTER, settled, ranges, []);
  }

  has(commandId: string): boolean {
    return this.get(commandId) !== undefined;
  }

  get(commandId: string): Range | undefined {
    const index = this.recentIndex(commandId);
    return index >= 0 ? this.recent[index][1] : this.settledRange(commandId);
  }

  /** Where the id is among the recent touches (-1: not there). */
  private recentIndex(commandId: string): number {
    for (let i = this.recent.length - 1; i >= 0; i--) if (this.recent[i][0] === commandId) return i;
    return -1;
  }

  /** The id's range in the settled map, unless the recent touches have pushed it out. */
  private settledRange(commandId: string): Range | undefined {
    const rank = this.settled.get(commandId);
    if (rank === undefined) return undefined;
    // The settled ids the recent touches pushed out are the oldest ones not touched again.
    const { added, touchedRanks } = this.recentSummary();
    const pushedOut = this.settled.size + added - this.limit;
    if (pushedOut <= 0) return this.ranges[rank];
    return rank - countBelow(touchedRanks, rank) < pushedOut ? undefined : this.ranges[rank];
  }

  /**
   * How many recent ids are new to the settled map, and the settled ranks of the others (sorted):
   * computed once per window (it is immutable), not on every lookup.
   */
  private recentSummary(): { added: number; touchedRanks: number[] } {
    if (this.summary === undefined) {
      const touchedRanks: number[] = [];
      for (const [id] of this.recent) {
        const rank = this.settled.get(id);
        if (rank !== undefined) touchedRanks.push(rank);
      }
      touchedRanks.sort((a, b) => a - b);
      this.summary = { added: this.recent.length - touchedRanks.length, touchedRanks };
    }
    return this.summary;
  }

  /** A log that records each `[commandId, revision, fingerprint?]` (in stream order). */
  withEvents(pairs: Iterable<readonly [string, bigint, string?]>): IdempotencyWindow {
    const touched = new Map<string, Range>();
    /** Whether a recent touch is touched again (then it moves to the end). */
    let again = false;
    for (const [commandId, revision, fingerprint] of pairs) {
      let existing = touched.get(commandId);
      if (existing === undefined) {
        const index = this.recentIndex(commandId);
        again ||= index >= 0;
        existing = index >= 0 ? this.recent[index][1] : this.settledRange(commandId);
      }
      touched.delete(commandId);
      touched.set(
        commandId,
        range(existing ? existing.first : revision, revision, existing?.fingerprint ?? fingerprint),
      );
    }
    // The common case, new ids only: the recent touches stay as they are (no filtering pass over them).
    const recent = again
      ? [...this.recent.filter(([id]) => !touched.has(id)), ...touched]
      : [...this.recent, ...touched];
    const options = { limit: this.limit, compactAfter: this.compactAfter };
    // Recent touches are the newest ids, so none is pushed out while there are at most `limit` of them.
    if (recent.length > Math.min(this.compactAfter, this.limit))
      return IdempotencyWindow.settle(options, this.windowWith(recent));
    return new IdempotencyWindow(this.limit, this.compactAfter, this.settled, this.ranges, recent);
  }

  toJSON(): RecentCommands {
    return this.windowWith(this.recent).map(([id, { first, last, fingerprint }]): RecentCommand =>
      fingerprint === undefined
        ? [id, first.toString(), last.toString()]
        : [id, first.toString(), last.toString(), fingerprint],
    );
  }

  /** The window in order (oldest touch first): the settled ids not touched since, then `recent`, the newest `limit`. */
  private windowWith(recent: readonly Touch[]): Touch[] {
    const again = new Set(recent.map(([id]) => id));
    const all: Touch[] = [];
    for (const [id, rank] of this.settled) if (!again.has(id)) all.push([id, this.ranges[rank]]);
    for (const touch of recent) all.push(touch);
    return all.length > this.limit ? all.slice(all.length - this.limit) : all;
  }
}

/** How many of the sorted `values` are below `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle] < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

function range(first: bigint, last: bigint, fingerprint: string | undefined): Range {
  return fingerprint === undefined ? { first, last } : { first, last, fingerprint };
}

/** The Idempotency-Key header as the API documents it (OpenAPI; docs/reliability-security.md, decision 0016). */
export const IDEMPOTENCY_KEY_DESCRIPTION =
  `Names this request on this agent (gRPC: command_id). The same key with the same request replays ` +
  `the first reply and records nothing; with a different request (another command, or other data) it ` +
  `is 422 idempotency_key_reused and records nothing. Window: the agent's last ${IdempotencyWindow.LIMIT} ` +
  `commands from callers, with no time limit (the scheduler's own writes never push a key out); an older ` +
  `key is a new request. A webhook's event_id counts once for the whole life of its waiting intent. ` +
  `Absent: every request is new.`;
