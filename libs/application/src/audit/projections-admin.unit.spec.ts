import type { EventStore } from '@app/event-store';
import { ProjectionsAdmin, type RebuildableProjection, type SqlReader } from './projections-admin';

const sql: SqlReader = { query: async () => ({ rows: [{ projection: 'read_models', position: '7', updated_at: null }] }) };
const store = (head: bigint | null) => ({ headPosition: async () => head }) as unknown as EventStore;

function slowRunner(): RebuildableProjection & { finish(): void } {
  let finish = () => undefined as void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { name: 'read_models', rebuild: async () => (await done, 42), finish: () => finish() };
}

describe('the projection admin', () => {
  it('reports the stored checkpoint against the store head', async () => {
    expect(await new ProjectionsAdmin(sql, store(10n), () => null).status()).toEqual([{ name: 'read_models', checkpoint: '7', head: '10', lag: '3', updated_at: null }]);
    expect((await new ProjectionsAdmin(sql, store(null), () => null).status())[0]).toMatchObject({ head: null, lag: null });
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
    await expect(new ProjectionsAdmin(sql, store(1n), () => null).rebuild()).rejects.toMatchObject({ code: 'conflict', details: { reason: 'no_projector' } });
  });
});
