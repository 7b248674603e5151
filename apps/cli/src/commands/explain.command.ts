import { isRfc3339 } from '@app/domain';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { explainText } from './explain-text';
import { explainAt } from './explain-view';
import { loadAgentStream } from './replay-source';
import { whyNotAt, whyNotText } from './why-not-view';

export const EXPLAIN_USAGE =
  'explain <agent> | --from-dir <dir> [--item <work item>] [--at <revision>] [--now <RFC3339>|now] [--json]';

/**
 * Folds the stream up to `--at` (default: its last revision) and prints the decision the
 * scheduler takes there, at `now` = recorded_at of the event at that revision (or `--now`: an instant, or `now` for the clock), and
 * for each open work item why it is or is not runnable, the queue head and what the agent waits for.
 * With `--item <w>`: the why-not view of that item (the one GET .../work-items/{w}/why answers).
 */
export async function explainCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, EXPLAIN_USAGE, { min: 0, max: 1 }, ['from-dir', 'json', 'at', 'now', 'item']);
  const now = optionalNow(args.flags.now);
  const at = optionalRevision(args.flags.at);
  const item = args.flags.item;
  if (item === true || item === '')
    throw new CliError(EXIT.usage, `--item needs a work item id\nusage: ${EXPLAIN_USAGE}`);
  const source = await loadAgentStream(args, io, EXPLAIN_USAGE);
  if (item !== undefined) {
    const view = whyNotAt(source, at, now, item);
    io.stdout(args.flags.json === true ? `${JSON.stringify(view, null, 2)}\n` : whyNotText(view));
    return EXIT.ok;
  }
  io.stdout(
    args.flags.json === true
      ? `${JSON.stringify(explainAt(source, at, now), null, 2)}\n`
      : explainText(explainAt(source, at, now)),
  );
  return EXIT.ok;
}

function optionalRevision(flag: string | true | undefined): number | null {
  if (flag === undefined) return null;
  if (typeof flag !== 'string' || !/^\d{1,15}$/.test(flag))
    throw new CliError(EXIT.usage, `--at takes a stream revision (0, 1, ...)\nusage: ${EXPLAIN_USAGE}`);
  return Number(flag);
}

function optionalNow(flag: string | true | undefined, clock = () => new Date()): string | null {
  if (flag === undefined) return null;
  if (flag === 'now') return clock().toISOString();
  if (typeof flag !== 'string' || !isRfc3339(flag))
    throw new CliError(
      EXIT.usage,
      `--now takes an RFC 3339 instant (2026-01-01T00:00:00Z) or "now" (this machine's clock)\nusage: ${EXPLAIN_USAGE}`,
    );
  return flag;
}
