import { setTimeout as delay } from 'node:timers/promises';
import type { Pool } from 'pg';
import type { EventStore } from '@app/event-store';
import type { BatchApplier } from './batch-applier';
import { Checkpoint } from './checkpoint';
import { PARKED_AGENTS_TABLE, ShadowTables } from './shadow-tables';
import { withTransaction } from '../postgres/postgres-pool';
import { noticeProgress } from './progress-notice';

export interface RebuildOptions {
  /** Stop at this position instead of the head (a copy compared with live models at their checkpoint). */
  upTo?: bigint;
}

/** Progress of a rebuild: events applied so far and the position it replays up to (null: empty store). */
export type RebuildProgress = (applied: number, head: bigint | null) => void;

/** A fresh applier of the same projectors writing through `pool` with `checkpoint` (the shadow's). */
export type ApplierFactory<S> = (pool: Pool, checkpoint: Checkpoint) => BatchApplier<S>;

/**
 * Swaps the shadow in: `swap` runs the swap transaction and returns the position the live models
 * are at afterwards. The runner wraps it to pause its own live loop around it.
 */
export type SwapGate = (swap: () => Promise<bigint>) => Promise<bigint>;

/**
 * Replays the store from position 0 into shadow copies of a runner's tables (ShadowTables) while
 * the live tables keep serving reads and the live runner keeps applying. Then, in one
 * transaction holding the live checkpoint row (the live runner's batches wait on it), the shadow
 * catches up to the live checkpoint, the tables are swapped and the checkpoint set: readers see
 * the old models or the rebuilt ones, never a partial rebuild.
 *
 * A poison event parks its agent in the shadow as the live runner would (ADR 0015); the swap
 * brings the shadow's parked agents along with its tables.
 */
export class Rebuild<S> {
  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly name: string,
    private readonly applierFor: ApplierFactory<S>,
    private readonly tables: string[],
    private readonly batchSize: number,
  ) {}

  /** Returns the number of events applied. */
  async run(onProgress?: RebuildProgress, options: RebuildOptions = {}, gate?: SwapGate): Promise<number> {
    const shadow = await ShadowTables.create(this.pool, this.tables);
    try {
      const checkpoint = new Checkpoint(shadow.shadowPool, this.name);
      await checkpoint.read();
      const applier = this.applierFor(shadow.shadowPool, checkpoint);
      await applier.forget();
      // Everything committed before the rebuild started; what readAll shows may lag behind it
      // while an older transaction is still open, so read until the head itself is applied.
      const head = options.upTo ?? (await this.store.headPosition()) ?? -1n;
      let applied = 0;
      const replay = async (upTo: bigint) => {
        applied += await this.replay(applier, checkpoint, upTo, (n) => onProgress?.(applied + n, head));
      };
      await replay(head);
      // The tail the live runner applied meanwhile, without holding it back.
      if (options.upTo === undefined) await replay(await this.liveCheckpoint());
      const swap = () =>
        withTransaction(this.pool, async (client) => {
          const { rows } = await client.query<{ position: string }>(
            'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1 FOR UPDATE',
            [this.name],
          );
          const live = rows.length ? BigInt(rows[0].position) : -1n;
          // The last events the live runner applied: the shadow ends exactly where it stands.
          if (options.upTo === undefined && live > checkpoint.position) await replay(live);
          await shadow.swap(client);
          await shadow.replaceRows(client, PARKED_AGENTS_TABLE, this.name);
          await client.query(
            `INSERT INTO projection_checkpoints (projection, position) VALUES ($1, $2)
             ON CONFLICT (projection) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
            [this.name, checkpoint.position.toString()],
          );
          await noticeProgress(client, this.name, checkpoint.position, true);
          return checkpoint.position;
        });
      await (gate ? gate(swap) : swap());
      return applied;
    } finally {
      await shadow.close();
    }
  }

  /** Applies the store after the checkpoint up to `upTo` in batches; returns the count applied. */
  private async replay(
    applier: BatchApplier<S>,
    checkpoint: Checkpoint,
    upTo: bigint,
    onProgress: (applied: number) => void,
  ): Promise<number> {
    let applied = 0;
    while (checkpoint.position < upTo) {
      const after = checkpoint.position;
      const page = await this.store.readAll({
        after_position: after < 0n ? undefined : after,
        max_count: this.batchSize,
      });
      const events = page.filter((event) => event.position <= upTo);
      if (events.length === 0) {
        if (page.length > 0) break;
        // Nothing shown yet below the head: readAll stops at the snapshot xmin of the database,
        // so any transaction still open anywhere holds it back, not only an append (which would
        // NOTIFY the store's subscription when it commits; the others notify nobody, and the
        // subscription would only find out at its next poll, 300 ms by default). Such a
        // transaction ends within moments: a short pause between reads, not a spin.
        await delay(20);
        continue;
      }
      await applier.apply(events);
      applied += events.length;
      onProgress(applied);
    }
    return applied;
  }

  private async liveCheckpoint(): Promise<bigint> {
    const { rows } = await this.pool.query<{ position: string }>(
      'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1',
      [this.name],
    );
    return rows.length ? BigInt(rows[0].position) : -1n;
  }
}
