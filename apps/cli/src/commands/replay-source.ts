import { existsSync, promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { type AgentState, type AnyEvent, evolve, initialAgentState } from '@app/domain';
import type { StoredEvent } from '@app/event-store';
import { agentStream, toDomainEvent } from '@app/core';
import { AgentEventsReader, parseJsonLines } from '@app/application';
import type { ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';
import { assertAgentId } from './agent-id';

/** An agent's whole stream, as stored, and the domain events it upcasts to (shared by replay and explain). */
export interface AgentStreamSource {
  agentId: string;
  /** Where it was read: `stream agent-<id>` or the events.jsonl path. */
  origin: string;
  stored: StoredEvent[];
  events: AnyEvent[];
}

/**
 * `<agent>` reads the deployment's store (the same selection as every command; exit 4 when the
 * agent has no stream); `--from-dir <dir>` reads `<dir>/events.jsonl` (a fixture or an export)
 * without a database, and an `<agent>` given with it must be the one the file holds.
 * Every event is upcast: a schema version newer than the code exits 7.
 */
export async function loadAgentStream(args: ParsedArgs, io: CliIo, usage: string): Promise<AgentStreamSource> {
  const [agentId] = args.positionals;
  const fromDir = args.flags['from-dir'];
  if (fromDir === true) throw new CliError(EXIT.usage, `--from-dir needs a directory\nusage: ${usage}`);
  const source =
    fromDir !== undefined ? await fromFile(resolve(io.cwd, fromDir), agentId) : await fromStore(io, agentId, usage);
  return { ...source, events: source.stored.map((event) => toDomainEvent(event)) };
}

async function fromFile(dir: string, agentId: string | undefined): Promise<Omit<AgentStreamSource, 'events'>> {
  const file = join(dir, 'events.jsonl');
  if (!existsSync(file)) throw new CliError(EXIT.notFound, `${file} not found: not a fixture or export directory`);
  const parsed = parseJsonLines(await fs.readFile(file, 'utf8'), file);
  if (agentId !== undefined && agentId !== parsed.agentId)
    throw new CliError(EXIT.notFound, `${file} holds agent ${parsed.agentId}, not ${agentId}`);
  return { agentId: parsed.agentId, origin: file, stored: parsed.events };
}

async function fromStore(
  io: CliIo,
  agentId: string | undefined,
  usage: string,
): Promise<Omit<AgentStreamSource, 'events'>> {
  if (agentId === undefined) throw new CliError(EXIT.usage, `usage: ${usage}`);
  assertAgentId(agentId);
  const stored = await withStores(io, ({ store }) => new AgentEventsReader(store).whole(agentId));
  return { agentId, origin: `stream ${agentStream(agentId)}`, stored };
}

/**
 * The agent at revision `at` of its stream (null: the end), with the events folded into it and the
 * stream's last revision; exit 4 for a revision beyond the stream (explain, explain --item).
 */
export function stateAt(
  source: AgentStreamSource,
  at: number | null,
): { state: AgentState; events: AnyEvent[]; revision: number; last: number } {
  const last = source.stored.length - 1;
  const revision = at ?? last;
  if (revision > last)
    throw new CliError(
      EXIT.notFound,
      `--at ${revision} is beyond the stream: agent ${source.agentId} has revisions 0..${last}`,
    );
  const events = source.events.slice(0, revision + 1);
  const state = events.reduce((s: AgentState, e: AnyEvent) => evolve(s, e), initialAgentState());
  return { state, events, revision, last };
}
