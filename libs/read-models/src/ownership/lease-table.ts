import type { Pool } from 'pg';

/** A shard this replica holds after a lease round. */
export interface HeldShard {
  shard: number;
  /** Raised each time the shard changes hands (a claim); unchanged by renewals. */
  epoch: number;
  /** `claimed` in this round, or `renewed`. */
  how: 'claimed' | 'renewed';
}

/**
 * One replica's lease round, one statement: refresh its membership, count the live members,
 * renew the leases it holds up to its fair share (ceil(shards / live members)), release the
 * rest (their expiry set to now: free at once), and claim free or lapsed shards up to that share
 * (`FOR UPDATE SKIP LOCKED`: two replicas claiming at once never wait for or take the same row;
 * the epoch goes up by one per claim). It answers the shards held after it, each with its epoch.
 *
 * Every CTE sees the same snapshot, so a shard released here is claimable from the next round
 * on (by any replica), and the renew, release and claim touch disjoint rows. A renewal re-checks
 * `owner` on the row it locks: a shard another replica claimed meanwhile (its lease had lapsed
 * by the database's clock) is not renewed, and so not answered: this replica learns it lost it.
 */
const ROUND_SQL = `
WITH member AS (
  INSERT INTO ownership_members (lease_group, owner, expires_at)
  VALUES ($1, $2, now() + $4 * interval '1 millisecond')
  ON CONFLICT (lease_group, owner) DO UPDATE SET expires_at = EXCLUDED.expires_at
  RETURNING owner
),
quota AS (
  SELECT ceil($3::numeric / (1 + count(*)))::int AS n
    FROM ownership_members
   WHERE lease_group = $1 AND owner <> $2 AND expires_at > now()
),
mine AS (
  SELECT shard, row_number() OVER (ORDER BY shard) AS rank
    FROM ownership_leases
   WHERE lease_group = $1 AND owner = $2 AND expires_at > now() AND shard < $3
),
renewed AS (
  UPDATE ownership_leases l SET expires_at = now() + $4 * interval '1 millisecond'
    FROM mine, quota
   WHERE l.lease_group = $1 AND l.shard = mine.shard AND mine.rank <= quota.n
     AND l.owner = $2 AND l.expires_at > now()
  RETURNING l.shard, l.epoch
),
released AS (
  UPDATE ownership_leases l SET expires_at = now()
    FROM mine, quota
   WHERE l.lease_group = $1 AND l.shard = mine.shard AND mine.rank > quota.n
     AND l.owner = $2 AND l.expires_at > now()
  RETURNING l.shard
),
free AS (
  SELECT shard FROM ownership_leases
   WHERE lease_group = $1 AND shard < $3 AND expires_at <= now()
   ORDER BY shard
   LIMIT (SELECT greatest(0, quota.n - (SELECT count(*) FROM mine)) FROM quota)
   FOR UPDATE SKIP LOCKED
),
claimed AS (
  UPDATE ownership_leases l
     SET owner = $2, epoch = l.epoch + 1, expires_at = now() + $4 * interval '1 millisecond'
    FROM free
   WHERE l.lease_group = $1 AND l.shard = free.shard
  RETURNING l.shard, l.epoch
)
SELECT shard, epoch::text AS epoch, 'renewed' AS how FROM renewed
UNION ALL
SELECT shard, epoch::text AS epoch, 'claimed' AS how FROM claimed
ORDER BY shard`;

/** The lease rows of a group, in Postgres (migration 0015). */
export class LeaseTable {
  constructor(
    private readonly pool: Pool,
    readonly group: string,
    readonly shards: number,
  ) {}

  /**
   * Creates the group's shard rows (free) when missing, and forgets members gone for an hour.
   * `takeOver`: every lease of the group lapses now and every member leaves (a restart on a
   * database no other process can reach: what is there is a crashed run's).
   */
  async prepare(options: { takeOver?: boolean } = {}): Promise<void> {
    if (options.takeOver) {
      await this.pool.query(
        `UPDATE ownership_leases SET expires_at = now() WHERE lease_group = $1 AND expires_at > now()`,
        [this.group],
      );
      await this.pool.query(`DELETE FROM ownership_members WHERE lease_group = $1`, [this.group]);
    }
    await this.pool.query(
      `INSERT INTO ownership_leases (lease_group, shard)
       SELECT $1, g FROM generate_series(0, $2::int - 1) g ON CONFLICT DO NOTHING`,
      [this.group, this.shards],
    );
    await this.pool.query(
      `DELETE FROM ownership_members WHERE ctid IN (
         SELECT ctid FROM ownership_members
          WHERE lease_group = $1 AND expires_at < now() - interval '1 hour' FOR UPDATE SKIP LOCKED)`,
      [this.group],
    );
  }

  /** One lease round for `owner` (see ROUND_SQL): the shards it holds afterwards. */
  async round(owner: string, ttlMs: number): Promise<HeldShard[]> {
    const { rows } = await this.pool.query<{ shard: number; epoch: string; how: HeldShard['how'] }>(ROUND_SQL, [
      this.group,
      owner,
      this.shards,
      ttlMs,
    ]);
    return rows.map((row) => ({ shard: row.shard, epoch: Number(row.epoch), how: row.how }));
  }

  /** A clean stop: the owner's leases lapse now (a standby claims them on its next round) and it leaves the group. */
  async release(owner: string): Promise<void> {
    await this.pool.query(
      `WITH gone AS (DELETE FROM ownership_members WHERE lease_group = $1 AND owner = $2)
       UPDATE ownership_leases SET expires_at = now() WHERE lease_group = $1 AND owner = $2 AND expires_at > now()`,
      [this.group, owner],
    );
  }

  /** Leases of the group free (never taken, or lapsed) for longer than `ms` by the database's clock. */
  async freeLongerThan(ms: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ownership_leases
        WHERE lease_group = $1 AND expires_at <= now() - make_interval(secs => $2::float8 / 1000)`,
      [this.group, ms],
    );
    return Number(rows[0].n);
  }

  /** Every row of the group (operators and specs): shard, owner, epoch, and whether the lease is live. */
  async rows(): Promise<Array<{ shard: number; owner: string | null; epoch: number; live: boolean }>> {
    const { rows } = await this.pool.query(
      `SELECT shard, owner, epoch::text AS epoch, expires_at > now() AS live
         FROM ownership_leases WHERE lease_group = $1 ORDER BY shard`,
      [this.group],
    );
    return rows.map((row) => ({ shard: row.shard, owner: row.owner, epoch: Number(row.epoch), live: row.live }));
  }
}
