import type { EventStore } from '@app/event-store';
import { ProjectionsAdmin, type RebuildableProjection, type SqlReader } from './projections-admin';

const sql: SqlReader = {
  query: async () => ({ rows: [{ projection: 'read_models', position: '7', updated_at: null }] }),
};
const store = (head: bigint | null) => ({ headPosition: async () => head }) as unknown as EventStore;

function slowRunner(): RebuildableProjection & { finish(): void } {
  let finish = () => undefined as void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { name: 'read_models', rebuild: async () => (await done, 42), finish: () => finish() };
}

describe('the projection admin', () => {
  it('reports the stored checkpoint against the store head', async () => {
    expect(await new ProjectionsAdmin(sql, store(10n), () => null).status()).toEqual([
      { name: 'read_models', status: 'ok', checkpoint: '7', head: '10', lag: '3', updated_at: null, stalled_at: null },
    ]);
    expect((await new ProjectionsAdmin(sql, store(null), () => null).status())[0]).toMatchObject({
      head: null,
      lag: null,
    });
  });

  it('reports a runner stopped at a poison event as stalled, with the dead letter', async () => {
    const stalled: SqlReader = {
      query: async () => ({
        rows: [
          {
            projection: 'read_models',
            position: '7',
            updated_at: null,
            stalled_position: '8',
            event_id: 'e-8',
            stream_id: 'agent-x',
            stream_revision: '3',
            event_type: 'FromTheFuture',
            error: 'unknown event type',
            attempts: 4,
            first_failed_at: '2026-01-01T00:00:00.000000Z',
            last_failed_at: '2026-01-01T00:00:08.000000Z',
          },
        ],
      }),
    };
    expect((await new ProjectionsAdmin(stalled, store(12n), () => null).status())[0]).toEqual({
      name: 'read_models',
      status: 'stalled',
      checkpoint: '7',
      head: '12',
      lag: '5',
      updated_at: null,
      stalled_at: {
        position: '8',
        event_id: 'e-8',
        stream: 'agent-x',
        revision: '3',
        type: 'FromTheFuture',
        error: 'unknown event type',
        attempts: 4,
        since: '2026-01-01T00:00:00.000000Z',
        last_attempt_at: '2026-01-01T00:00:08.000000Z',
      },
    });
  });

  it('answers a rebuild that meets a poison event with a conflict naming its position', async () => {
    const poisoned: RebuildableProjection = {
      name: 'read_models',
      rebuild: async () => {
        throw Object.assign(new Error('stalled'), {
          code: 'projection_stalled',
          letter: { position: 8n, error: 'unknown event type', stream: 'agent-x', type: 'FromTheFuture' },
        });
      },
    };
    await expect(new ProjectionsAdmin(sql, store(10n), () => poisoned).rebuild()).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'projection_stalled', position: '8', stream: 'agent-x', type: 'FromTheFuture' },
    });
  });

  it('refuses a second rebuild while one runs (conflict), and accepts one after it', async () => {
    const runner = slowRunner();
    const admin = new ProjectionsAdmin(sql, store(10n), () => runner);
    const first = admin.rebuild();
    await expect(admin.rebuild()).rejects.toMatchObject({ code: 'conflict', details: { reason: 'rebuild_running' } });
    runner.finish();
    expect(await first).toMatchObject({ projection: 'read_models', events: 42 });
    await expect(admin.rebuild()).resolves.toMatchObject({ events: 42 });
  });

  it('refuses to rebuild in a process that runs no projector', async () => {
    await expect(new ProjectionsAdmin(sql, store(1n), () => null).rebuild()).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'no_projector' },
    });
  });
});
