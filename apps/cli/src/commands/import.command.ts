import { existsSync, promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { evolve, initialAgentState } from '@app/domain';
import { WrongExpectedRevisionError, type EventStore, type EventToAppend, type StoredEvent } from '@app/event-store';
import { agentStream, SchemaVersionError, toDomainEvent } from '@app/core';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, eventsToImport, parseJsonLines } from '@app/application';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';
import { assertAgentId } from './agent-id';
import { readPlanBodies, restorePlanBodies } from './plan-files';

export const IMPORT_USAGE = 'import <dir> [--as <agent-id>]';
const BATCH = 500;

/**
 * Appends an exported stream to this deployment; revisions come out identical. The plan bodies
 * of the export are kept first, so every event that names one finds it.
 */
export async function importCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, IMPORT_USAGE, { min: 1, max: 1 }, ['as']);
  const dir = resolve(io.cwd, args.positionals[0]);
  const { agentId: source, events } = await readExport(dir);
  const target = typeof args.flags.as === 'string' ? args.flags.as : source;
  assertAgentId(target);
  assertFoldable(events);
  const toAppend = eventsToImport(events, source, target);
  const bodies = await readPlanBodies(dir);
  const { resumedAt } = await withStores(io, async ({ pool, store }) => {
    await restorePlanBodies(bodies, pool);
    return appendStream(store, target, toAppend);
  });
  const resumed = resumedAt > 0 ? ` (resumed an interrupted import at revision ${resumedAt})` : '';
  const ids = source === target ? 'event ids kept' : `exported from ${source}; event ids derived for ${target}`;
  io.stdout(
    `imported ${events.length} events as agent ${target} (revisions 0..${events.length - 1}; ${ids})${resumed}\n`,
  );
  return EXIT.ok;
}

async function readExport(dir: string): Promise<{ agentId: string; events: StoredEvent[] }> {
  const file = join(dir, 'events.jsonl');
  if (!existsSync(file)) throw new CliError(EXIT.notFound, `${file} not found: not an export directory`);
  const parsed = parseJsonLines(await fs.readFile(file, 'utf8'), file);
  const metaFile = join(dir, 'agent.json');
  if (existsSync(metaFile)) {
    const meta = JSON.parse(await fs.readFile(metaFile, 'utf8')) as {
      format?: string;
      format_version?: number;
      agent_id?: string;
    };
    if (
      meta.format !== EXPORT_FORMAT ||
      typeof meta.format_version !== 'number' ||
      meta.format_version > EXPORT_FORMAT_VERSION
    ) {
      throw new CliError(
        EXIT.unreadable,
        `${metaFile}: not an export this version reads (${EXPORT_FORMAT} v${EXPORT_FORMAT_VERSION})`,
      );
    }
    if (meta.agent_id !== parsed.agentId)
      throw new CliError(
        EXIT.unreadable,
        `${metaFile} names agent ${meta.agent_id}, events.jsonl holds ${parsed.agentId}`,
      );
  }
  return parsed;
}

/** Every event upcasts and folds through today's domain, before anything is written. */
function assertFoldable(events: StoredEvent[]): void {
  let state = initialAgentState();
  events.forEach((event, index) => {
    try {
      state = evolve(state, toDomainEvent(event));
    } catch (error) {
      const why =
        error instanceof SchemaVersionError
          ? error.message
          : `the domain cannot fold this ${event.type}: ${(error as Error).message}`;
      throw new CliError(EXIT.unreadable, `events.jsonl:${index + 1}: ${why}`);
    }
  });
}

/**
 * Appends in batches with chained expected revisions. A stream that already holds a prefix of
 * exactly these events (an interrupted import) is completed; any other existing stream is refused.
 */
async function appendStream(
  store: EventStore,
  agentId: string,
  events: EventToAppend[],
): Promise<{ resumedAt: number }> {
  const stream = agentStream(agentId);
  const current = await store.streamRevision(stream);
  const existing = current === null ? [] : await store.readStream(stream, { max_count: events.length + 1 });
  const prefix = existing.length <= events.length && existing.every((event, index) => event.id === events[index].id);
  if (current !== null && (!prefix || existing.length === events.length)) {
    const what = prefix ? 'already holds exactly these events' : `exists (revision ${current})`;
    throw new CliError(
      EXIT.conflict,
      `agent ${agentId}: stream ${stream} ${what}; import never writes into an existing agent (use --as <new-id>)`,
    );
  }
  try {
    for (let start = existing.length; start < events.length; start += BATCH) {
      await store.appendToStream(
        stream,
        events.slice(start, start + BATCH),
        start === 0 ? 'no_stream' : BigInt(start - 1),
      );
    }
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError)
      throw new CliError(EXIT.conflict, `agent ${agentId}: another writer appended to ${stream} during the import`);
    throw error;
  }
  return { resumedAt: existing.length };
}
