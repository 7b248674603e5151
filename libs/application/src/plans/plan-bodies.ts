import { hash } from 'node:crypto';

/** The one query plan bodies need; structurally a `pg.Pool` (the application does not import pg). */
export interface PlanBodySql {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

const HASH = /^sha256:([0-9a-f]{64})$/;

/** `sha256:<hex>` of the bytes: the key of a plan body, and the `hash` of its descriptor. */
export function planHash(bytes: Buffer): string {
  return `sha256:${hash('sha256', bytes)}`;
}

/** The hex part of a well-formed plan hash, or null. */
export function planHashHex(hash: string): string | null {
  return HASH.exec(hash)?.[1] ?? null;
}

/**
 * plan_bodies (migration 0012): every plan body by its hash, in the Postgres all replicas share.
 * Inserted if absent before the event naming it is appended, so an event never names a body the
 * store lacks (a body without an event is harmless); never updated or deleted.
 */
export class PlanBodies {
  constructor(private readonly sql: PlanBodySql) {}

  /** Keeps `bytes` under its hash (nothing happens when it is there already); returns the hash. */
  async put(bytes: Buffer): Promise<string> {
    const hash = planHash(bytes);
    await this.sql.query(
      'INSERT INTO plan_bodies (hash, body, size) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING',
      [hash, bytes, bytes.length],
    );
    return hash;
  }

  /** The body stored under `hash`, or null. */
  async get(hash: string): Promise<Buffer | null> {
    if (planHashHex(hash) === null) return null;
    const { rows } = await this.sql.query('SELECT body FROM plan_bodies WHERE hash = $1', [hash]);
    return rows.length === 0 ? null : (rows[0].body as Buffer);
  }
}

/** Every plan hash an agent's events name (the bodies an export carries), in first-seen order. */
export function planHashesOf(events: ReadonlyArray<{ type: string; data: unknown }>): string[] {
  const hashes = new Set<string>();
  for (const event of events) {
    if (event.type !== 'WorkItemCreated' && event.type !== 'PlanArtifactRefreshed') continue;
    const hash = (event.data as { plan_artifact?: { hash?: unknown } }).plan_artifact?.hash;
    if (typeof hash === 'string' && planHashHex(hash) !== null) hashes.add(hash);
  }
  return [...hashes];
}
