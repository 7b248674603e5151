import { projectionStatus } from '@app/application';
import { expectArgs, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';

export const STATUS_USAGE = 'status';

/** Checkpoint, store head and lag of every projection, as a table on stdout. */
export async function statusCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, STATUS_USAGE, { min: 0, max: 0 });
  const items = await withStores(io, async ({ pool, store }) => ({
    rows: await projectionStatus(pool, store),
    head: await store.headPosition(),
  }));
  io.stdout(`event store head: ${items.head === null ? 'empty store' : items.head.toString()}\n`);
  if (items.rows.length === 0) {
    io.stdout('no projection has run yet (no checkpoint stored)\n');
    return EXIT.ok;
  }
  const rows = [
    ['PROJECTION', 'CHECKPOINT', 'HEAD', 'LAG', 'UPDATED'],
    ...items.rows.map((r) => [r.name, r.checkpoint, r.head ?? '-', r.lag ?? '-', r.updated_at ?? '-']),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    io.stdout(
      `${row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd()}\n`,
    );
  return EXIT.ok;
}
