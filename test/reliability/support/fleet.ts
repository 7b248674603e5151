import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { OutputTail, ServiceProcess, spawnTs, tempDataDir } from './service-process';

/**
 * A fleet of runtime processes on one Postgres store, each role replicated: `api`, `projector`
 * and `scheduler` replicas as child processes on loopback (their own ephemeral ports and data
 * directories), all on DATABASE_URL. The suite owns the Postgres (one embedded server started
 * here) unless it is given a connection string. Replicas are stopped by pid: `kill9` one,
 * `close` all (SIGTERM, then SIGKILL if one hangs), so none outlives the suite.
 */
export type FleetRole = 'api' | 'projector' | 'scheduler';
export const FLEET_ROLES: FleetRole[] = ['api', 'projector', 'scheduler'];

export interface FleetOptions {
  /** Replicas of each role (default 2 of each). */
  replicas?: Partial<Record<FleetRole, number>>;
  /** SCHEDULER_LEASE_TTL_MS and PROJECTOR_LEASE_TTL_MS of every replica (default 3000). */
  leaseTtlMs?: number;
  /** An existing database (the soak's DATABASE_URL); default: an embedded Postgres of the fleet's own. */
  databaseUrl?: string;
  env?: Record<string, string>;
}

export interface Replica {
  role: FleetRole;
  /** `api-0`, `scheduler-1`... */
  name: string;
  service: ServiceProcess;
  dataDir: string;
  killed: boolean;
}

export class Fleet {
  readonly replicas: Replica[] = [];
  private readonly dirs: string[] = [];

  private constructor(
    readonly url: string,
    readonly leaseTtlMs: number,
    private readonly options: FleetOptions,
    private readonly postgres: { stop(): Promise<void>; dir: string } | null,
  ) {}

  /** Starts the Postgres (unless given) and every replica at once; on any failure stops what started. */
  static async start(options: FleetOptions = {}): Promise<Fleet> {
    let postgres: { stop(): Promise<void>; dir: string } | null = null;
    let url = options.databaseUrl;
    if (!url) {
      const dir = tempDataDir('fleet-pg-');
      try {
        const handle = await startPostgresChild(join(dir, 'pg'));
        postgres = { stop: handle.stop, dir };
        url = handle.url;
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
    const fleet = new Fleet(url, options.leaseTtlMs ?? 3_000, options, postgres);
    try {
      // The api replicas first: they migrate the store and the read models once, the others find them done.
      await fleet.startReplica('api', 0);
      const rest: Array<[FleetRole, number]> = [];
      for (const role of FLEET_ROLES) {
        const count = options.replicas?.[role] ?? 2;
        for (let index = role === 'api' ? 1 : 0; index < count; index++) rest.push([role, index]);
      }
      // Settled, not Promise.all: a failed start must not leave a slower sibling running unseen.
      const started = await Promise.allSettled(rest.map(([role, index]) => fleet.startReplica(role, index)));
      const failed = started.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    } catch (error) {
      await fleet.close();
      throw error;
    }
    return fleet;
  }

  async startReplica(role: FleetRole, index: number): Promise<Replica> {
    const dataDir = tempDataDir(`fleet-${role}-`);
    this.dirs.push(dataDir);
    const ttl = String(this.leaseTtlMs);
    const service = await ServiceProcess.start({
      dataDir,
      databaseUrl: this.url,
      role,
      timeoutMs: 420_000,
      env: { SCHEDULER_LEASE_TTL_MS: ttl, PROJECTOR_LEASE_TTL_MS: ttl, ...this.options.env },
    });
    const replica: Replica = { role, name: `${role}-${index}`, service, dataDir, killed: false };
    this.replicas.push(replica);
    return replica;
  }

  /** The live replicas of a role. */
  live(role: FleetRole): Replica[] {
    return this.replicas.filter((replica) => replica.role === role && !replica.killed);
  }

  /** `kill -9` of one replica (by pid): no shutdown hook runs, its leases lapse after the TTL. */
  async kill9(replica: Replica): Promise<void> {
    replica.killed = true;
    await replica.service.kill9();
  }

  /** The replica of a role whose process holds the most live leases of `group` (owner is `host:pid:random`). */
  async leaseHolder(role: FleetRole, group: 'scheduler' | 'projector'): Promise<Replica | undefined> {
    const pool = new Pool({ connectionString: this.url, max: 1 });
    pool.on('error', () => undefined);
    try {
      const { rows } = await pool.query<{ owner: string; shards: number }>(
        `SELECT owner, count(*)::int AS shards FROM ownership_leases
          WHERE lease_group = $1 AND expires_at > now() GROUP BY owner ORDER BY shards DESC`,
        [group],
      );
      for (const row of rows) {
        const pid = Number(row.owner.split(':')[1]);
        const replica = this.live(role).find((candidate) => candidate.service.pid === pid);
        if (replica) return replica;
      }
      return undefined;
    } finally {
      await pool.end();
    }
  }

  /** The last output lines of every replica (for a failure message). */
  output(last = 15): string {
    return this.replicas
      .map((replica) => `--- ${replica.name} (pid ${replica.service.pid}) ---\n${replica.service.output.text(last)}`)
      .join('\n');
  }

  /** Stops every replica (SIGTERM, SIGKILL when one hangs), then the Postgres; removes the directories. */
  async close(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => replica.service.stop(15_000).catch(() => undefined)));
    await this.postgres?.stop().catch(() => undefined);
    for (const dir of [...this.dirs, ...(this.postgres ? [this.postgres.dir] : [])])
      rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The embedded Postgres in a child process of its own (the package is ESM-only and keeps
 * process-wide state, so not in a jest worker): test/reliability/security/support's child,
 * which stops the server when its stdin closes.
 */
async function startPostgresChild(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawnTs(
    'test/reliability/security/support/embedded-postgres-child.ts',
    { PG_DATA_DIR: dataDir },
    {
      stdin: 'pipe',
    },
  );
  const tail = new OutputTail();
  tail.attach(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await Promise.race([tail.wait((text) => /^(READY|FAILED) /.test(text)), exited.then(() => 'EXIT')]);
  if (!line.startsWith('READY ')) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw new Error(`the embedded Postgres did not start:\n${tail.text()}`);
  }
  const { url } = JSON.parse(line.slice('READY '.length)) as { url: string };
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      await exited;
    },
  };
}
