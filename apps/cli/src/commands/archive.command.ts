import { randomUUID } from 'node:crypto';
import { AgentRepository, parseArchiveCompletedAfter } from '@app/application';
import { agentStateDecider } from '@app/core';
import { type AgentEvent, type AgentState, decide, parseRfc3339, renderArchiveWorkItemsReply } from '@app/domain';
import { PostgresSnapshotStore } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';
import { assertAgentId } from './agent-id';
import { cliActor } from './dead-letters.command';

export const ARCHIVE_USAGE = 'archive <agent-id> --before <instant> | --older-than <duration>';

function cutOffOf(args: ParsedArgs, now: number): string {
  const { before, 'older-than': olderThan } = args.flags;
  if (typeof before === 'string' && olderThan === undefined) {
    const instant = parseRfc3339(before);
    if (instant === null) throw new CliError(EXIT.usage, `--before: not an RFC 3339 instant: ${before}`);
    return instant;
  }
  if (typeof olderThan === 'string' && before === undefined) {
    const ms = parseArchiveCompletedAfter(olderThan);
    if (typeof ms !== 'number') throw new CliError(EXIT.usage, `--older-than ${ms ?? 'must be a duration'}`);
    return new Date(now - ms).toISOString();
  }
  throw new CliError(EXIT.usage, `usage: ${ARCHIVE_USAGE}`);
}

/**
 * ArchiveWorkItems as the API's admin route records it (docs/decisions/0034): completed items
 * older than the cut-off leave the agent's live state; the stream keeps everything.
 */
export async function archiveCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, ARCHIVE_USAGE, { min: 1, max: 1 }, ['before', 'older-than']);
  const [agentId] = args.positionals;
  assertAgentId(agentId);
  const now = new Date();
  const cutOff = cutOffOf(args, now.getTime());
  return withStores(io, async ({ pool, store }) => {
    const agents = new AgentRepository<AgentState, AgentEvent>(
      store,
      new PostgresSnapshotStore(pool),
      agentStateDecider,
    );
    const commandId = randomUUID();
    const command = {
      type: 'ArchiveWorkItems' as const,
      data: { completed_before: cutOff },
      meta: { now: now.toISOString(), command_id: commandId, actor: cliActor(io) },
    };
    const result = await agents.transact({ agentId, commandId, actor: cliActor(io) }, (state) =>
      decide(command, state),
    );
    const reply = renderArchiveWorkItemsReply(command, result.before, result.after, result.events);
    io.stdout(`${JSON.stringify({ ...reply, revision: result.revision?.toString() ?? null })}\n`);
    return EXIT.ok;
  });
}
