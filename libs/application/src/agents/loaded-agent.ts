import { RecentCommands } from './agent-decider';

export interface LoadedAgent<S> {
  state: S;
  /** Revision of the last event folded in, or null for a stream that does not exist. */
  revision: bigint | null;
  commands: RecentCommandLog;
  /** Events folded since the last snapshot was taken. */
  sinceSnapshot: number;
}

/**
 * The idempotency window: the last N command ids applied to an agent and the revisions of
 * their events. Immutable; kept beside the domain state (the domain never sees it).
 */
export class RecentCommandLog {
  static readonly LIMIT = 1000;

  private constructor(private readonly entries: Map<string, { first: bigint; last: bigint }>) {}

  static empty(): RecentCommandLog {
    return new RecentCommandLog(new Map());
  }

  static fromJSON(json: RecentCommands): RecentCommandLog {
    const entries = new Map<string, { first: bigint; last: bigint }>();
    for (const [id, first, last] of json) entries.set(id, { first: BigInt(first), last: BigInt(last) });
    return new RecentCommandLog(entries);
  }

  has(commandId: string): boolean {
    return this.entries.has(commandId);
  }

  get(commandId: string): { first: bigint; last: bigint } | undefined {
    return this.entries.get(commandId);
  }

  /** A copy that records each `[commandId, revision]` pair (in stream order). */
  withEvents(pairs: Iterable<[string, bigint]>): RecentCommandLog {
    const entries = new Map(this.entries);
    for (const [commandId, revision] of pairs) {
      const existing = entries.get(commandId);
      entries.delete(commandId);
      entries.set(commandId, { first: existing ? existing.first : revision, last: revision });
    }
    while (entries.size > RecentCommandLog.LIMIT) entries.delete(entries.keys().next().value as string);
    return new RecentCommandLog(entries);
  }

  toJSON(): RecentCommands {
    return [...this.entries].map(([id, range]) => [id, range.first.toString(), range.last.toString()]);
  }
}
