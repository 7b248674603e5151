import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const handle = (globalThis as Record<string, unknown>).__EMBEDDED_PG__ as { stop(): Promise<void> } | undefined;
  if (handle) await handle.stop();
  const eventStoreDb = (globalThis as Record<string, unknown>).__EVENTSTOREDB__ as
    { stop(): Promise<void> } | undefined;
  if (eventStoreDb) await eventStoreDb.stop();
  if (process.env.TEST_TMP_DIR) rmSync(process.env.TEST_TMP_DIR, { recursive: true, force: true });
}
