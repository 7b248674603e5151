import { deadLettersOf, projectionStatus } from '@app/application';
import { READ_MODELS_PROJECTION } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';

export const STATUS_USAGE = 'status';

/** Checkpoint, store head, lag and state of every projection as a table on stdout, then the parked agents. */
export async function statusCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, STATUS_USAGE, { min: 0, max: 0 });
  const items = await withStores(io, async ({ pool, store }) => {
    const rows = await projectionStatus(pool, store);
    const letters = rows.some((r) => r.name === READ_MODELS_PROJECTION)
      ? await deadLettersOf(pool, READ_MODELS_PROJECTION)
      : null;
    return { rows, head: await store.headPosition(), parked: letters?.parked_agents ?? [] };
  });
  io.stdout(`event store head: ${items.head === null ? 'empty store' : items.head.toString()}\n`);
  if (items.rows.length === 0) {
    io.stdout('no projection has run yet (no checkpoint stored)\n');
    return EXIT.ok;
  }
  table(io, [
    ['PROJECTION', 'CHECKPOINT', 'HEAD', 'LAG', 'UPDATED', 'STATE'],
    ...items.rows.map((r) => [
      r.name,
      r.checkpoint,
      r.head ?? '-',
      r.lag ?? '-',
      r.updated_at ?? '-',
      r.stalled_at ? `stalled at ${r.stalled_at.position}` : r.status,
    ]),
  ]);
  if (items.parked.length > 0) {
    io.stdout(
      `\n${items.parked.length} agent(s) parked by a poison event (their later events wait: npm run cli -- dead-letters list | skip | retry):\n`,
    );
    table(io, [
      ['AGENT', 'DEAD LETTER', 'FROM REVISION', 'SINCE'],
      ...items.parked.map((p) => [p.agent_id, p.letter_position, p.from_revision, p.parked_at]),
    ]);
  }
  return EXIT.ok;
}

function table(io: CliIo, rows: string[][]): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    io.stdout(
      `${row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd()}\n`,
    );
}
