import type { Pool } from 'pg';
import { ApiError } from '@app/core';
import { RefusalLog, refusalOf, type Refusal } from './refusal-log';

const refusal = (n: number): Refusal => ({
  actor: 'ops:operator',
  route: 'Control',
  agent_id: 'agent-a',
  code: 'no_op',
  reason: 'no_op',
  message: `refusal ${n}`,
  at: '2026-01-01T00:00:00.000Z',
});

/** A pool whose queries wait until released (or fail), recording what was sent. */
function fakePool(behaviour: 'hang' | 'fail' | 'ok') {
  const queries: { sql: string; values: unknown[] }[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const pool = {
    query: async (sql: string, values: unknown[] = []) => {
      queries.push({ sql, values });
      if (behaviour === 'hang') await gate;
      if (behaviour === 'fail') throw new Error('connection refused');
      return { rows: [{ last: String(queries.length) }] };
    },
  } as unknown as Pool;
  return { pool, queries, release };
}

describe('refusalOf', () => {
  it('is the code and a bounded reason word of a 4xx refusal', () => {
    expect(refusalOf(new ApiError('not_found', 'work item w-1 not found', { resource: 'work_item' }))).toEqual({
      code: 'not_found',
      reason: 'not_found',
      message: 'work item w-1 not found',
    });
    expect(refusalOf(new ApiError('conflict', 'taken', { reason: 'already_exists' }))?.reason).toBe('already_exists');
    expect(refusalOf(new ApiError('invariant_violated', 'x', { rule: 'item_completed' }))?.reason).toBe(
      'item_completed',
    );
    expect(refusalOf(new ApiError('conflict', 'x', { status: 'resolved' }))?.reason).toBe('resolved');
  });

  it('keeps a reason that is not a short snake_case word out of the labels', () => {
    expect(refusalOf(new ApiError('conflict', 'x', { reason: 'Agent agent-42 said no' }))?.reason).toBe('conflict');
    expect(refusalOf(new ApiError('conflict', 'x', { reason: 'a'.repeat(60) }))?.reason).toBe('conflict');
  });

  it('is null for what is not the caller’s: 5xx, and errors that are not wire errors', () => {
    expect(refusalOf(new ApiError('unavailable', 'down'))).toBeNull();
    expect(refusalOf(new ApiError('contention', 'busy'))).toBeNull();
    expect(refusalOf(new Error('boom'))).toBeNull();
    expect(refusalOf(undefined)).toBeNull();
  });

  it('cuts a long message to 500 characters', () => {
    expect(refusalOf(new ApiError('validation_failed', 'x'.repeat(2_000)))?.message).toHaveLength(500);
  });
});

describe('RefusalLog', () => {
  it('writes a burst in one batch, then prunes the rows past the retention by id', async () => {
    const { pool, queries } = fakePool('ok');
    const log = new RefusalLog(pool, { retainRows: 10 });
    for (let n = 0; n < 3; n++) log.record(refusal(n));
    await log.drained();
    expect(queries).toHaveLength(2);
    expect(queries[0]!.sql).toContain('INSERT INTO command_refusals');
    expect(queries[0]!.values).toHaveLength(21);
    expect(queries[1]).toEqual({ sql: 'DELETE FROM command_refusals WHERE id <= $1', values: ['-9'] });
  });

  it('never grows past its buffer while the database is slow: the rest is dropped and counted', async () => {
    const { pool, release } = fakePool('hang');
    let dropped = 0;
    const log = new RefusalLog(pool, { bufferSize: 5, batchSize: 5, onDropped: () => (dropped += 1) });
    for (let n = 0; n < 5; n++) log.record(refusal(n));
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch is being written: the buffer has room for 5 more, then drops.
    for (let n = 5; n < 100; n++) log.record(refusal(n));
    expect(dropped).toBe(90);
    expect(log.dropped).toBe(90);
    release();
    await log.drained();
  });

  it('reports a failed write and never throws to the caller', async () => {
    const { pool } = fakePool('fail');
    const failures: number[] = [];
    const log = new RefusalLog(pool, { onError: (_error, lost) => failures.push(lost) });
    expect(() => log.record(refusal(1))).not.toThrow();
    await log.drained();
    expect(failures).toEqual([1]);
  });
});
