import type { Pool } from 'pg';
import { isolatedDatabaseUrl, testPool } from '../testing';
import { RowWriter } from '../projection/row-writer';
import { messagesProjector } from './waiting-plane.projectors';

/**
 * The state keeps no body once a message is processed (ADR 0042): a messages row keeps the body
 * it has when a later write leaves it null, and takes any body a write brings.
 */
describe('the messages row keeps the body the state no longer holds', () => {
  let pool: Pool;
  const writer = new RowWriter(messagesProjector.tables);
  const row = (status: string, body: unknown) => ({
    agent_id: 'agent-a',
    id: 'm-1',
    status,
    priority_rank: 2,
    seq: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    view: { id: 'm-1', status, body, seq: 1 },
  });
  const write = async (position: bigint, status: string, body: unknown) => {
    const client = await pool.connect();
    try {
      await writer.write(client, [{ table: 'messages', row: row(status, body), position }]);
    } finally {
      client.release();
    }
  };
  const stored = async () =>
    (
      await pool.query<{ status: string; view: { status: string; body: unknown } }>(
        "SELECT status, view FROM messages WHERE agent_id = 'agent-a' AND id = 'm-1'",
      )
    ).rows[0];

  beforeAll(async () => {
    pool = await testPool(2, await isolatedDatabaseUrl('bodies'));
  });
  afterAll(() => pool?.end());

  it('keeps the body through a write without one, and takes a new body', async () => {
    await write(1n, 'dequeued', { text: 'Fix the build.' });
    await write(2n, 'processed', null);
    expect(await stored()).toEqual({
      status: 'processed',
      view: { id: 'm-1', status: 'processed', body: { text: 'Fix the build.' }, seq: 1 },
    });
    await write(3n, 'processed', 'Another body.');
    expect((await stored()).view.body).toBe('Another body.');
    await write(2n, 'dequeued', 'stale'); // an older position changes nothing
    expect((await stored()).view).toMatchObject({ status: 'processed', body: 'Another body.' });
  });
});
