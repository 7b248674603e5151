import { setTimeout as delay } from 'node:timers/promises';
import type { Pool } from 'pg';
import type { EventStore } from '@app/event-store';
import type { BatchApplier } from './batch-applier';
import type { Checkpoint } from './checkpoint';
import { withTransaction } from '../postgres/postgres-pool';

export interface RebuildOptions {
  /** Stop at this position instead of the head (a copy compared with live models at their checkpoint). */
  upTo?: bigint;
}

/**
 * Drops every read model of one runner and replays the store from position 0 through the same
 * applier and checkpoint as the live loop (which must not run meanwhile). A poison event parks
 * its agent as in the live loop (the parked agents are dropped with the models first).
 */
export class Rebuild<S> {
  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly checkpoint: Checkpoint,
    private readonly applier: BatchApplier<S>,
    private readonly batchSize: number,
  ) {}

  /** Returns the number of events applied. */
  async run(onProgress?: (applied: number) => void, options: RebuildOptions = {}): Promise<number> {
    await this.reset();
    // Everything committed before the rebuild started; what readAll shows may lag behind it
    // while an older transaction is still open, so read until the head itself is applied.
    const head = options.upTo ?? (await this.store.headPosition()) ?? -1n;
    let applied = 0;
    while (this.checkpoint.position < head) {
      const after = this.checkpoint.position;
      const page = await this.store.readAll({
        after_position: after < 0n ? undefined : after,
        max_count: this.batchSize,
      });
      const events = page.filter((event) => event.position <= head);
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
      await this.applier.apply(events);
      applied += events.length;
      onProgress?.(applied);
    }
    return applied;
  }

  /** Truncates the models, sets the checkpoint to -1 and drops the parked agents, in one transaction. */
  private async reset(): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      await client.query(`TRUNCATE ${this.applier.tableNames().join(', ')}`);
      await this.checkpoint.reset(client);
      await this.applier.reset(client);
    });
    this.checkpoint.moveTo(-1n);
    await this.applier.forget();
  }
}
