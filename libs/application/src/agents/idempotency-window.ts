import type { RecentCommand, RecentCommands } from '@app/core';

/** The revisions of a command's events, and the fingerprint of the request that wrote them (none before it was kept). */
type Range = { readonly first: bigint; readonly last: bigint; readonly fingerprint?: string };

/**
 * The touches since the last compaction, oldest first, in two parallel arrays that only ever grow,
 * and where each id is in them (an id is there at most once): a window reads its first `count`
 * entries, so the newest window of a lineage extends them in place and the windows before it still
 * read what they read (a second window derived from the same one copies its entries first).
 */
type Recent = { readonly ids: string[]; readonly ranges: Range[]; readonly index: Map<string, number> };

const emptyRecent = (): Recent => ({ ids: [], ranges: [], index: new Map() });

function addTouch(recent: Recent, id: string, touched: Range): void {
  recent.index.set(id, recent.ids.length);
  recent.ids.push(id);
  recent.ranges.push(touched);
}

/** Where `id` is among the first `count` touches of `recent` (-1: not there; the index is the lineage's). */
function placeOf(recent: Recent, count: number, id: string): number {
  const place = recent.index.get(id);
  return place !== undefined && place < count ? place : -1;
}

/** The first `count` touches of `recent` in new arrays, without the ids of `skipped`. */
function copyOf(recent: Recent, count: number, skipped?: ReadonlySet<string>): Recent {
  const copy = emptyRecent();
  for (let i = 0; i < count; i++)
    if (skipped === undefined || !skipped.has(recent.ids[i])) addTouch(copy, recent.ids[i], recent.ranges[i]);
  return copy;
}

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
 * copied, plus the touches since (an id at most once, newest last) in arrays and an index that
 * each command extends by one entry instead of copying them (`Recent`); every `compactAfter`
 * touches they are folded into a new settled map. Which settled ids the newer touches have pushed
 * out is computed from the ranks, so the window is exactly the newest `limit` ids at every step.
 * Building a settled map (up to `limit` entries) is the window's largest cost per command and a
 * large part of what a command leaves alive at a scavenge (docs/decisions/0055), so it is done
 * every 512 touches, not every 128: a lookup is two Map reads either way.
 */
export class IdempotencyWindow {
  static readonly LIMIT = 1000;
  static readonly COMPACT_AFTER = 512;

  private constructor(
    private readonly limit: number,
    private readonly compactAfter: number,
    /** Each settled id's rank (0 = the oldest touch). */
    private readonly settled: ReadonlyMap<string, number>,
    /** The settled ranges, by rank. */
    private readonly ranges: readonly Range[],
    /** The recent touches: this window's are the first `count` entries. */
    private readonly recent: Recent,
    private readonly count: number,
  ) {}

  private summary: { added: number; touchedRanks: number[] } | undefined;

  static empty(options: IdempotencyWindowOptions = {}): IdempotencyWindow {
    return IdempotencyWindow.settle(options, [], []);
  }

  static fromJSON(json: RecentCommands, options: IdempotencyWindowOptions = {}): IdempotencyWindow {
    return IdempotencyWindow.settle(
      options,
      json.map(([id]) => id),
      json.map(([, first, last, fingerprint]) => range(BigInt(first), BigInt(last), fingerprint ?? undefined)),
    );
  }

  /** A log whose window is the newest `limit` of the touches `ids` and `ranges` (oldest first), all settled. */
  private static settle(
    options: IdempotencyWindowOptions,
    ids: readonly string[],
    ranges: readonly Range[],
  ): IdempotencyWindow {
    const limit = options.limit ?? IdempotencyWindow.LIMIT;
    const from = Math.max(0, ids.length - limit);
    const settled = new Map<string, number>();
    for (let rank = 0; rank < ids.length - from; rank++) settled.set(ids[from + rank], rank);
    return new IdempotencyWindow(
      limit,
      options.compactAfter ?? IdempotencyWindow.COMPACT_AFTER,
      settled,
      from === 0 ? ranges : ranges.slice(from),
      emptyRecent(),
      0,
    );
  }

  has(commandId: string): boolean {
    return this.get(commandId) !== undefined;
  }

  get(commandId: string): Range | undefined {
    const index = this.recentIndex(commandId);
    return index >= 0 ? this.recent.ranges[index] : this.settledRange(commandId);
  }

  /** Where the id is among this window's recent touches (-1: not there). */
  private recentIndex(commandId: string): number {
    // An entry past this window's count was added by a newer window.
    return placeOf(this.recent, this.count, commandId);
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
      for (let i = 0; i < this.count; i++) {
        const rank = this.settled.get(this.recent.ids[i]);
        if (rank !== undefined) touchedRanks.push(rank);
      }
      touchedRanks.sort((a, b) => a - b);
      this.summary = { added: this.count - touchedRanks.length, touchedRanks };
    }
    return this.summary;
  }

  /** A log that records each `[commandId, revision, fingerprint?]` (in stream order). */
  withEvents(pairs: Iterable<readonly [string, bigint, string?]>): IdempotencyWindow {
    // The ids of this call, each once, in the order of their last touch (a command's pairs all name one).
    const ids: string[] = [];
    const ranges: Range[] = [];
    /** Whether a recent touch is touched again (then it moves to the newest end). */
    let again = false;
    for (const [commandId, revision, fingerprint] of pairs) {
      const index = ids.lastIndexOf(commandId);
      let existing: Range | undefined;
      if (index >= 0) {
        existing = ranges[index];
        ids.splice(index, 1);
        ranges.splice(index, 1);
      } else {
        const recentIndex = this.recentIndex(commandId);
        again ||= recentIndex >= 0;
        existing = recentIndex >= 0 ? this.recent.ranges[recentIndex] : this.settledRange(commandId);
      }
      ids.push(commandId);
      ranges.push(range(existing ? existing.first : revision, revision, existing?.fingerprint ?? fingerprint));
    }
    // The newest window of its lineage extends its entries in place (the older windows read fewer). An
    // id written again after other commands (rare) moves to the end, and a second window derived from
    // this one must not see the entries the first one added: both take a copy.
    const recent = again
      ? copyOf(this.recent, this.count, new Set(ids))
      : this.recent.ids.length === this.count
        ? this.recent
        : copyOf(this.recent, this.count);
    for (let i = 0; i < ids.length; i++) addTouch(recent, ids[i], ranges[i]);
    const count = recent.ids.length;
    // Recent touches are the newest ids, so none is pushed out while there are at most `limit` of them.
    if (count > Math.min(this.compactAfter, this.limit)) {
      const window = this.windowWith(recent, count);
      return IdempotencyWindow.settle(
        { limit: this.limit, compactAfter: this.compactAfter },
        window.ids,
        window.ranges,
      );
    }
    return new IdempotencyWindow(this.limit, this.compactAfter, this.settled, this.ranges, recent, count);
  }

  toJSON(): RecentCommands {
    const { ids, ranges } = this.windowWith(this.recent, this.count);
    return ids.map((id, i): RecentCommand => {
      const { first, last, fingerprint } = ranges[i];
      return fingerprint === undefined
        ? [id, first.toString(), last.toString()]
        : [id, first.toString(), last.toString(), fingerprint];
    });
  }

  /**
   * The window in order (oldest touch first) as two parallel lists: the settled ids not touched
   * since, then the first `count` recent touches, the newest `limit`.
   */
  private windowWith(recent: Recent, count: number): { ids: string[]; ranges: Range[] } {
    const ids: string[] = [];
    const ranges: Range[] = [];
    for (const [id, rank] of this.settled) {
      if (placeOf(recent, count, id) >= 0) continue;
      ids.push(id);
      ranges.push(this.ranges[rank]);
    }
    for (let i = 0; i < count; i++) {
      ids.push(recent.ids[i]);
      ranges.push(recent.ranges[i]);
    }
    const from = Math.max(0, ids.length - this.limit);
    return from === 0 ? { ids, ranges } : { ids: ids.slice(from), ranges: ranges.slice(from) };
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
