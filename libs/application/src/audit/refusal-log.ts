import type { Pool } from 'pg';
import { type HttpMappable, HTTP_STATUS_BY_CODE, isHttpMappable } from '@app/core';

/** One refusal as the audit keeps it (GET /v1/admin/refusals, `cli refusals`). */
export interface Refusal {
  /** The token's printable name (`<grant>:<role>`, `admin-token`, `callback`), never the secret. */
  actor: string;
  /** The operation: `CreateWorkItem`, `TriggerWaitingIntent`, `Control`... (the same over HTTP and gRPC). */
  route: string;
  agent_id: string | null;
  /** The wire error code, or `no_op` for a control that changed nothing. */
  code: string;
  /** details.reason / rule / status when the refusal names one, else the code. */
  reason: string;
  message: string;
  at: string;
}

export interface RefusalRow extends Refusal {
  id: string;
}

export const REFUSAL_LOG = Symbol('REFUSAL_LOG');

export interface RefusalLogOptions {
  /** REFUSALS_RETAIN_ROWS: the newest rows kept (default 10 000). */
  retainRows?: number;
  /** Refusals waiting for their write at most (default 1 000): a flood beyond is counted as dropped, not kept. */
  bufferSize?: number;
  /** Rows per INSERT (default 200). */
  batchSize?: number;
  /** A failed write (the rows of the batch are lost, the request was answered long before). */
  onError?: (error: unknown, lost: number) => void;
  /** A refusal dropped because the buffer was full. */
  onDropped?: () => void;
}

export const DEFAULT_REFUSALS_RETAIN_ROWS = 10_000;
const MESSAGE_MAX = 500;
const REASON = /^[a-z][a-z0-9_]{0,47}$/;

/** The refusal an error is, or null for what is not the caller's (5xx, a crash). */
export function refusalOf(error: unknown): { code: string; reason: string; message: string } | null {
  if (!isHttpMappable(error)) return null;
  const status = HTTP_STATUS_BY_CODE[error.code];
  if (status < 400 || status >= 500) return null;
  return { code: error.code, reason: reasonOf(error), message: error.message.slice(0, MESSAGE_MAX) };
}

/** A short, bounded reason word: details.reason, else rule, else status; else the code itself. */
function reasonOf(error: HttpMappable): string {
  const details = error.details ?? {};
  for (const key of ['reason', 'rule', 'status']) {
    const value = details[key];
    if (typeof value === 'string' && REASON.test(value)) return value;
  }
  return error.code;
}

/**
 * The refusals audit (read-models migration 0013). `record` never waits and never throws: it puts
 * the refusal in a bounded buffer that one writer flushes in batches (a flood beyond the buffer is
 * dropped and counted, so memory stays bounded); after each batch the rows past the retention are
 * pruned by id (one indexed range delete).
 */
export class RefusalLog {
  private buffer: Refusal[] = [];
  private flushing: Promise<void> | null = null;
  private readonly retainRows: number;
  private readonly bufferSize: number;
  private readonly batchSize: number;
  dropped = 0;

  constructor(
    private readonly pool: Pool,
    private readonly options: RefusalLogOptions = {},
  ) {
    this.retainRows = options.retainRows ?? DEFAULT_REFUSALS_RETAIN_ROWS;
    this.bufferSize = options.bufferSize ?? 1_000;
    this.batchSize = options.batchSize ?? 200;
  }

  record(refusal: Refusal): void {
    if (this.buffer.length >= this.bufferSize) {
      this.dropped += 1;
      this.options.onDropped?.();
      return;
    }
    this.buffer.push(refusal);
    this.flushing ??= this.flushAll().finally(() => (this.flushing = null));
  }

  /** Resolves once every refusal recorded so far is written (or its write failed). */
  async drained(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushAll(): Promise<void> {
    // Let the request that recorded it be answered first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.batchSize);
      try {
        await this.write(batch);
      } catch (error) {
        this.options.onError?.(error, batch.length);
      }
    }
  }

  private async write(batch: Refusal[]): Promise<void> {
    const values: unknown[] = [];
    const rows = batch.map((r, i) => {
      values.push(r.at, r.actor, r.route, r.agent_id, r.code, r.reason, r.message);
      const base = i * 7;
      return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}, $${base + 7})`;
    });
    const { rows: inserted } = await this.pool.query<{ last: string }>(
      `WITH added AS (INSERT INTO command_refusals (at, actor, route, agent_id, code, reason, message)
         VALUES ${rows.join(', ')} RETURNING id)
       SELECT max(id)::text AS last FROM added`,
      values,
    );
    const last = BigInt(inserted[0]!.last);
    await this.pool.query('DELETE FROM command_refusals WHERE id <= $1', [(last - BigInt(this.retainRows)).toString()]);
  }

  /** The newest refusals first, of one agent or of all; `total`: every row kept that matches. */
  async list(agentId: string | undefined, limit: number): Promise<{ items: RefusalRow[]; total: number }> {
    const where = agentId === undefined ? '' : 'WHERE agent_id = $1';
    const params = agentId === undefined ? [] : [agentId];
    const [page, count] = await Promise.all([
      this.pool.query<Record<string, unknown>>(
        `SELECT id::text AS id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
                actor, route, agent_id, code, reason, message
           FROM command_refusals ${where} ORDER BY id DESC LIMIT $${params.length + 1}`,
        [...params, limit],
      ),
      this.pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM command_refusals ${where}`, params),
    ]);
    const items = page.rows.map((row) => ({
      id: String(row.id),
      at: String(row.at),
      actor: String(row.actor),
      route: String(row.route),
      agent_id: row.agent_id === null ? null : String(row.agent_id),
      code: String(row.code),
      reason: String(row.reason),
      message: String(row.message),
    }));
    return { items, total: count.rows[0]!.total };
  }
}
