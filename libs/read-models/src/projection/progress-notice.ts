import type { PoolClient } from 'pg';

/**
 * The channel a projection's progress is announced on (Postgres LISTEN/NOTIFY), for processes
 * that wait on the read models without running the projector (docs/decisions/0023). Channels are
 * database-wide, so the payload names the schema the tables live in.
 */
export const PROGRESS_CHANNEL = 'projection_progress';

/** A notification's payload (JSON): the projection's checkpoint, and whether its parked agents changed. */
export interface ProgressNotice {
  schema: string;
  projection: string;
  /** The checkpoint after the transaction (decimal string). */
  position: string;
  /** True when the transaction parked or resumed an agent: a listener reads the parked agents again. */
  parked: boolean;
}

const NOTIFY = `SELECT pg_notify('${PROGRESS_CHANNEL}', json_build_object('schema', current_schema(),
  'projection', $1::text, 'position', $2::text, 'parked', $3::boolean)::text)`;

/**
 * In the transaction that moves a projection (a batch, a dead letter's resolution, a rebuild's
 * swap): delivered to every listener when it commits, never when it rolls back.
 */
export async function noticeProgress(
  client: PoolClient,
  projection: string,
  position: bigint,
  parked: boolean,
): Promise<void> {
  await client.query(NOTIFY, [projection, position.toString(), parked]);
}

/** A payload as sent by noticeProgress, or null for anything else. */
export function parseProgressNotice(payload: string | undefined): ProgressNotice | null {
  try {
    const value = JSON.parse(payload ?? '') as Partial<ProgressNotice>;
    if (typeof value.schema !== 'string' || typeof value.projection !== 'string') return null;
    if (typeof value.position !== 'string' || !/^-?\d{1,20}$/.test(value.position)) return null;
    return { schema: value.schema, projection: value.projection, position: value.position, parked: !!value.parked };
  } catch {
    return null;
  }
}
