import { setTimeout as delay } from 'node:timers/promises';
import { Pool, type PoolClient, type PoolConfig } from 'pg';

/** The table every runner keeps its position in; the shadow gets its own copy (same name, same row). */
export const CHECKPOINT_TABLE = 'projection_checkpoints';
/** The agents a poison event parked (ADR 0015): per projection, rebuilt in the shadow like the checkpoint. */
export const PARKED_AGENTS_TABLE = 'projection_parked_agents';
// NOTE: stored contract: two rebuilds of one schema never run at once (a session advisory lock on this key + the schema).
const REBUILD_LOCK_KEY = 734_017;
/** The swap's wait for the live tables per attempt (well below deadlock_timeout, 1 s by default). */
const LOCK_WAIT_MS = 100;
const LOCK_ATTEMPTS = 600;
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * A schema beside the live one (`<live>_rebuild`) holding empty copies of a projection's tables:
 * same columns, defaults, checks, keys and index names. A rebuild writes there through a pool
 * whose search_path puts the shadow first, and `swap` moves the tables into the live schema in
 * one transaction: readers see the old rows or the new ones, never a half-built table.
 */
export class ShadowTables {
  private constructor(
    private readonly lock: PoolClient,
    readonly live: string,
    readonly shadow: string,
    private readonly tables: string[],
    /** The pool that writes into the shadow (its search_path: shadow, live). */
    readonly shadowPool: Pool,
  ) {}

  /** Takes the rebuild lock (or throws RebuildRunningError), then creates the shadow schema afresh. */
  static async create(pool: Pool, tables: string[]): Promise<ShadowTables> {
    const lock = await pool.connect();
    lock.on('error', () => undefined);
    let shadowPool: Pool | undefined;
    try {
      const { rows } = await lock.query<{ live: string }>('SELECT current_schema() AS live');
      const live = rows[0].live;
      const shadow = `${live.slice(0, 55)}_rebuild`;
      const { rows: locked } = await lock.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS ok',
        [REBUILD_LOCK_KEY, shadow],
      );
      if (!locked[0].ok) throw new RebuildRunningError(live);
      const all = [...tables, CHECKPOINT_TABLE, PARKED_AGENTS_TABLE];
      await lock.query(`DROP SCHEMA IF EXISTS ${ident(shadow)} CASCADE`);
      await lock.query(`CREATE SCHEMA ${ident(shadow)}`);
      for (const table of all) await copyTable(lock, live, shadow, table);
      shadowPool = searchPathPool(pool, `${ident(shadow)}, ${ident(live)}`);
      return new ShadowTables(lock, live, shadow, tables, shadowPool);
    } catch (error) {
      await shadowPool?.end().catch(() => undefined);
      lock.release(true);
      throw error;
    }
  }

  /**
   * In the caller's transaction on the live pool (which holds the live checkpoint row): replaces
   * every live table by its shadow copy. The rows committed by the live runner until then are
   * dropped with their table; the caller sets the checkpoint to the shadow's position.
   */
  async swap(client: PoolClient): Promise<void> {
    await this.lockLive(client);
    for (const table of this.tables) {
      await client.query(`DROP TABLE ${ident(this.live)}.${ident(table)}`);
      await client.query(`ALTER TABLE ${ident(this.shadow)}.${ident(table)} SET SCHEMA ${ident(this.live)}`);
    }
  }

  /**
   * In the swap's transaction: the live rows of `projection` in a table several projections
   * share (the parked agents) become the shadow's.
   */
  async replaceRows(client: PoolClient, table: string, projection: string): Promise<void> {
    const [live, shadow] = [this.live, this.shadow].map((schema) => `${ident(schema)}.${ident(table)}`);
    await client.query(`DELETE FROM ${live} WHERE projection = $1`, [projection]);
    await client.query(`INSERT INTO ${live} SELECT * FROM ${shadow} WHERE projection = $1`, [projection]);
  }

  /**
   * Takes every live table at once, or none: a reader holding one table while it waits for
   * another would otherwise deadlock with the swap (and Postgres would fail the reader). Each
   * attempt waits a moment at most, then lets go of all and tries again.
   */
  private async lockLive(client: PoolClient): Promise<void> {
    const tables = this.tables.map((table) => `${ident(this.live)}.${ident(table)}`).join(', ');
    for (let attempt = 1; ; attempt++) {
      await client.query('SAVEPOINT shadow_swap');
      try {
        await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`);
        await client.query(`LOCK TABLE ${tables} IN ACCESS EXCLUSIVE MODE`);
        await client.query('RELEASE SAVEPOINT shadow_swap');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= LOCK_ATTEMPTS) throw error;
        await client.query('ROLLBACK TO SAVEPOINT shadow_swap');
        await delay(Math.floor(Math.random() * LOCK_WAIT_MS));
      }
    }
  }

  /** Drops the shadow schema (what is left of it) and releases the lock. */
  async close(): Promise<void> {
    await this.shadowPool.end().catch(() => undefined);
    try {
      await this.lock.query(`DROP SCHEMA IF EXISTS ${ident(this.shadow)} CASCADE`);
      await this.lock.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [REBUILD_LOCK_KEY, this.shadow]);
      this.lock.release();
    } catch {
      this.lock.release(true);
    }
  }
}

/** Another rebuild of the same schema holds the lock. */
export class RebuildRunningError extends Error {
  readonly code = 'rebuild_running';
  constructor(schema: string) {
    super(`a rebuild of the read models in schema ${schema} is already running`);
  }
}

/**
 * An empty copy of `live.table` in `shadow`: columns, defaults and checks by LIKE, then every key
 * and index under its live name (LIKE would name them after itself), so a later migration that
 * names an index finds it after the swap.
 */
async function copyTable(client: PoolClient, live: string, shadow: string, table: string): Promise<void> {
  const from = `${ident(live)}.${ident(table)}`;
  const to = `${ident(shadow)}.${ident(table)}`;
  await client.query(`CREATE TABLE ${to} (LIKE ${from} INCLUDING ALL EXCLUDING INDEXES)`);
  const { rows: constraints } = await client.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE conrelid = $1::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname`,
    [from],
  );
  for (const c of constraints) await client.query(`ALTER TABLE ${to} ADD CONSTRAINT ${ident(c.name)} ${c.def}`);
  // Qualified by pg_get_indexdef because the catalog is all the search_path holds here.
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL search_path = pg_catalog');
    const { rows: indexes } = await client.query<{ def: string; target: string }>(
      `SELECT pg_get_indexdef(i.indexrelid) AS def, format('%I.%I', $2::text, $3::text) AS target
       FROM pg_index i WHERE i.indrelid = $1::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
       ORDER BY i.indexrelid`,
      [from, live, table],
    );
    for (const index of indexes) {
      const on = ` ON ${index.target} `;
      if (!index.def.includes(on)) throw new Error(`cannot copy index of ${from}: ${index.def}`);
      await client.query(index.def.replace(on, ` ON ${to} `));
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** A small pool on the same server whose sessions resolve unqualified names with `searchPath`. */
function searchPathPool(pool: Pool, searchPath: string): Pool {
  const { connectionString, ...options } = (pool as unknown as { options: PoolConfig }).options;
  // A connection string's parameters win over the config's fields: the option goes into it.
  const setting = `-c search_path=${searchPath.replace(/ /g, '')}`;
  let config: PoolConfig = { ...options, options: setting };
  if (connectionString) {
    const url = new URL(connectionString);
    url.searchParams.set('options', setting);
    config = { ...options, connectionString: url.toString() };
  }
  const shadow = new Pool({ ...config, max: 4 });
  shadow.on('error', () => undefined);
  return shadow;
}

/** A double-quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
