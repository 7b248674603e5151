/**
 * The test client's record of every command it sent: the history checker's evidence. A command
 * is `acked` when the service answered 2xx (the service promised it is stored), `refused` when
 * it answered a definite 4xx (nothing written, docs/api.md), and `unknown` when the outcome cannot be
 * known (a 5xx, a reset connection, a killed service): it may or may not be stored, but never twice.
 */
export type Outcome = 'acked' | 'refused' | 'unknown';

export interface CommandRecord {
  /** The Idempotency-Key, i.e. the events' metadata.command_id. */
  key: string;
  agent: string;
  method: string;
  path: string;
  body: unknown;
  outcome: Outcome;
  status: number | null;
  /** The reply's `revision` (the stream revision after the write), when acked. */
  revision: bigint | null;
  /** Whether an acked reply means events were appended (false for commands that may be no-ops). */
  appends: boolean;
  /** How many times the client sent it (retries reuse the key). */
  attempts: number;
  /** Every reply, in order (the same key must always get the same answer). */
  replies: Array<{ status: number | null; body: unknown }>;
}

export class AckLog {
  private readonly records = new Map<string, CommandRecord>();

  record(
    entry: Omit<CommandRecord, 'attempts' | 'replies' | 'outcome' | 'status' | 'revision'>,
    reply: { status: number | null; body: unknown },
  ): CommandRecord {
    const existing = this.records.get(entry.key);
    const record: CommandRecord = existing ?? {
      ...entry,
      outcome: 'unknown',
      status: null,
      revision: null,
      attempts: 0,
      replies: [],
    };
    record.attempts += 1;
    record.replies.push(reply);
    const outcome = outcomeOf(reply.status);
    // Once acked, a command stays acked: a later unknown attempt (service killed) does not undo it.
    if (record.outcome !== 'acked') {
      record.outcome = outcome;
      record.status = reply.status;
      if (outcome === 'acked') record.revision = revisionOf(reply.body);
    }
    this.records.set(entry.key, record);
    return record;
  }

  all(): CommandRecord[] {
    return [...this.records.values()];
  }

  get(key: string): CommandRecord | undefined {
    return this.records.get(key);
  }

  acked(): CommandRecord[] {
    return this.all().filter((r) => r.outcome === 'acked');
  }

  unknown(): CommandRecord[] {
    return this.all().filter((r) => r.outcome === 'unknown');
  }

  agents(): string[] {
    return [...new Set(this.all().map((r) => r.agent))];
  }
}

export function outcomeOf(status: number | null): Outcome {
  if (status === null || status >= 500) return 'unknown';
  if (status >= 200 && status < 300) return 'acked';
  return 'refused';
}

function revisionOf(body: unknown): bigint | null {
  const revision = typeof body === 'object' && body !== null ? (body as { revision?: unknown }).revision : undefined;
  return typeof revision === 'string' && /^[0-9]+$/.test(revision) ? BigInt(revision) : null;
}
