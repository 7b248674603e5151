import { Client, type Pool } from 'pg';
import { parseProgressNotice, PROGRESS_CHANNEL } from '../projection/progress-notice';
import type { CoverageSource, ProjectionCoverage } from './coverage';

export interface ListenedCoverageOptions {
  /** Pause before the listener connects again after losing its connection (default 1 s). */
  reconnectMs?: number;
  onError?: (error: unknown) => void;
}

const READ_SQL = `SELECT c.projection, c.position::text AS position,
    coalesce((SELECT json_agg(json_build_array(p.agent_id, p.letter_position::text))
                FROM projection_parked_agents p WHERE p.projection = c.projection), '[]'::json) AS parked
  FROM projection_checkpoints c`;

/**
 * The coverage of projections that another process runs (RUNTIME_ROLE without `projector`): one
 * connection LISTENs on PROGRESS_CHANNEL, where every batch announces its checkpoint when it
 * commits. A checkpoint's advance costs no query at all; a notice that an agent was parked or
 * resumed (rare), or a new connection, costs one read of the checkpoints and parked agents,
 * coalesced. Connected on the first wait, not before: a process nobody asks to wait holds nothing.
 */
export class ListenedCoverage implements CoverageSource {
  private coverage = new Map<string, ProjectionCoverage>();
  private readonly listeners = new Set<() => void>();
  private client: Client | null = null;
  private schema: string | null = null;
  private starting: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  private again = false;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  /** Database reads made (the connection's set-up and refreshes): specs check it does not grow with the waiters. */
  reads = 0;

  constructor(
    private readonly pool: Pool,
    private readonly options: ListenedCoverageOptions = {},
  ) {}

  current(): ProjectionCoverage[] {
    return [...this.coverage.values()];
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Never throws: without a connection the coverage stays as last known, and waits run out. */
  ready(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return (this.starting ??= this.connect());
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client((this.pool as unknown as { options: ConstructorParameters<typeof Client>[0] }).options);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === PROGRESS_CHANNEL) this.onNotice(message.payload);
    });
    try {
      await client.connect();
      // LISTEN before the first read: a batch committing in between is seen by one or the other.
      await client.query(`LISTEN ${PROGRESS_CHANNEL}`);
      const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
      this.reads++;
      this.schema = rows[0].schema;
      if (this.closed) throw new Error('closed');
      this.client = client;
      await this.refresh();
    } catch (error) {
      if (!this.closed) this.options.onError?.(error);
      this.starting = null;
      await client.end().catch(() => undefined);
    }
  }

  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.starting = null;
    void client.end().catch(() => undefined);
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.ready();
    }, this.options.reconnectMs ?? 1_000);
    this.retry.unref();
  }

  private onNotice(payload: string | undefined): void {
    const notice = parseProgressNotice(payload);
    if (!notice || notice.schema !== this.schema) return;
    // Parked or resumed agents: read them (and the checkpoint) before anyone is told.
    if (notice.parked) return void this.refresh();
    const known = this.coverage.get(notice.projection);
    const position = BigInt(notice.position);
    if (known && known.checkpoint >= position) return;
    this.coverage.set(notice.projection, {
      projection: notice.projection,
      checkpoint: position,
      parked: known?.parked ?? new Map(),
    });
    this.emit();
  }

  /** One read of every checkpoint and parked agent; a refresh asked for while one runs is one more read after it. */
  private refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.read();
      } while (this.again && !this.closed);
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async read(): Promise<void> {
    let rows: Array<{ projection: string; position: string; parked: Array<[string, string]> }>;
    try {
      this.reads++;
      rows = (await this.pool.query(READ_SQL)).rows;
    } catch (error) {
      this.options.onError?.(error);
      return;
    }
    const next = new Map<string, ProjectionCoverage>();
    for (const row of rows) {
      const read = BigInt(row.position);
      const known = this.coverage.get(row.projection)?.checkpoint;
      // A notice newer than this read may have come meanwhile: a checkpoint never moves back.
      const checkpoint = known !== undefined && known > read ? known : read;
      const parked = new Map(row.parked.map(([agentId, letter]) => [agentId, BigInt(letter)] as const));
      next.set(row.projection, { projection: row.projection, checkpoint, parked });
    }
    this.coverage = next;
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
