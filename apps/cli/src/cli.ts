import { DomainError } from '@app/domain';
import { StoreUnavailableError } from '@app/event-store';
import { StoredEventFormatError } from '@app/application';
import { SchemaVersionError } from '@app/core';
import { parseArgs, type ParsedArgs } from './args';
import { CliError, EXIT, type CliIo } from './cli-io';
import { ARCHIVE_USAGE, archiveCommand } from './commands/archive.command';
import { CHECK_USAGE, checkCommand } from './commands/check.command';
import { DEAD_LETTERS_USAGE, deadLettersCommand } from './commands/dead-letters.command';
import { EXPLAIN_USAGE, explainCommand } from './commands/explain.command';
import { EXPORT_USAGE, exportCommand } from './commands/export.command';
import { IMPORT_USAGE, importCommand } from './commands/import.command';
import { REBUILD_USAGE, rebuildCommand } from './commands/rebuild.command';
import { REFUSALS_USAGE, refusalsCommand } from './commands/refusals.command';
import { REPLAY_USAGE, replayCommand } from './commands/replay.command';
import { STATUS_USAGE, statusCommand } from './commands/status.command';
import { STRANDED_USAGE, strandedCommand } from './commands/stranded.command';
import { WHAT_IF_USAGE, whatIfCommand } from './commands/what-if.command';

type Command = { usage: string; summary: string; run(args: ParsedArgs, io: CliIo): Promise<number> };

/** Options that take a value (`--as <id>`, `--at <revision>`...); every other `--name` is a switch. */
const VALUED_OPTIONS = [
  'as',
  'at',
  'now',
  'from-dir',
  'reason',
  'before',
  'older-than',
  'agent',
  'limit',
  'kind',
  'item',
  'policy',
];

const COMMANDS: Record<string, Command> = {
  export: {
    usage: EXPORT_USAGE,
    summary: "write the agent's stream as events.jsonl + agent.json (bodies replaced by a marker with --redact-bodies)",
    run: exportCommand,
  },
  import: {
    usage: IMPORT_USAGE,
    summary: 'append an exported stream (refused when the agent exists; --as imports under another id)',
    run: importCommand,
  },
  rebuild: {
    usage: REBUILD_USAGE,
    summary: 'drop the read models and replay them from position 0',
    run: rebuildCommand,
  },
  status: {
    usage: STATUS_USAGE,
    summary: 'checkpoint, head, lag and state per projection, and the agents a poison event parked',
    run: statusCommand,
  },
  check: {
    usage: CHECK_USAGE,
    summary: 'open the stores and print the health report (exit 9 when a projection is stalled or lagging)',
    run: checkCommand,
  },
  stranded: {
    usage: STRANDED_USAGE,
    summary: 'stranded work across agents, oldest first (the read models at this clock or --now): GET /v1/stranded',
    run: strandedCommand,
  },
  'dead-letters': {
    usage: DEAD_LETTERS_USAGE,
    summary: "list the read models' dead letters and parked agents, or skip / retry one (audited as cli:<user>)",
    run: deadLettersCommand,
  },
  archive: {
    usage: ARCHIVE_USAGE,
    summary: "record WorkItemsArchived: completed items older than the cut-off leave the agent's live state",
    run: archiveCommand,
  },
  refusals: {
    usage: REFUSALS_USAGE,
    summary: 'the refusals audit, newest first: refused commands, triggers on resolved intents, no-op controls',
    run: refusalsCommand,
  },
  replay: {
    usage: REPLAY_USAGE,
    summary: 'recompute every recorded scheduler decision from the stream: ✓/✗ each, exit 8 on a mismatch',
    run: replayCommand,
  },
  explain: {
    usage: EXPLAIN_USAGE,
    summary:
      'the decision at a revision (default the end; now = its recorded_at) and why each open item is or is not runnable; --item: why that item is (not) next',
    run: explainCommand,
  },
  'what-if': {
    usage: WHAT_IF_USAGE,
    summary:
      'the recorded decisions that other scheduler settings (ranking, lease TTL, recheck) would change, side by side',
    run: whatIfCommand,
  },
};

export const HELP = `usage: agent-runtime <command> [arguments]   (npm run cli -- <command>)

commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage.padEnd(42)} ${c.summary}`)
  .join('\n')}

stores: the service's own configuration (RUNTIME_DATA_DIR, DATABASE_URL, EVENTSTORE_CONNECTION_STRING).
  DATABASE_URL set: that Postgres. Otherwise, when a service runs on RUNTIME_DATA_DIR (it wrote
  <data dir>/service.json and is alive): its Postgres. Otherwise an embedded Postgres started from
  <data dir>/pg for the command. The choice is printed on stderr.

exit codes:
  0 success            1 unexpected failure     2 usage or configuration error
  3 not available yet  4 unknown agent, missing export or fixture, --at beyond the stream
  5 store unreachable  6 conflict (agent exists, export directory already holds an export, concurrent writer)
  7 unreadable data (export format, or an event schema_version newer than this code)
  8 replay: a recorded decision is not reproduced
  9 check: a projection is stalled (a poison event parked an agent) or lagging

replay, explain and what-if read the store like the other commands, or --from-dir <dir> (its events.jsonl:
  a fixture under fixtures/scheduler or an export) without a database.
`;

/** Runs one command; never throws: every failure is a message on stderr and an exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const args = parseArgs(argv, VALUED_OPTIONS);
    if (args.command === undefined || args.command === 'help' || (args.flags.help && !COMMANDS[args.command])) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    const command = COMMANDS[args.command];
    if (!command) throw new CliError(EXIT.usage, `unknown command ${args.command}\n${HELP}`);
    if (args.flags.help) {
      io.stdout(`usage: agent-runtime ${command.usage}\n  ${command.summary}\n`);
      return EXIT.ok;
    }
    return await command.run(args, io);
  } catch (error) {
    const [code, message] = explain(error);
    io.stderr(`agent-runtime: ${message}\n`);
    return code;
  }
}

function explain(error: unknown): [number, string] {
  if (error instanceof CliError) return [error.exitCode, error.message];
  if (error instanceof DomainError && error.code === 'not_found')
    return [EXIT.notFound, `${error.message} (no events in this deployment's store)`];
  if (error instanceof SchemaVersionError || error instanceof StoredEventFormatError)
    return [EXIT.unreadable, error.message];
  if (error instanceof StoreUnavailableError)
    return [EXIT.storeUnreachable, `the event store is unreachable: ${error.message}`];
  const message = error instanceof Error ? error.message : String(error);
  return [EXIT.failed, `failed: ${message}`];
}
