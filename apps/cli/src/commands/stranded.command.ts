import { strandedThresholds } from '@app/application';
import { ID_PATTERN, isRfc3339, STRANDED_KINDS, type StrandedKind } from '@app/domain';
import { StrandedQueries } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { cliConfig, withStores } from '../cli-run';

export const STRANDED_USAGE = 'stranded [--kind <kind>] [--agent <id>] [--limit <n>] [--now <RFC3339>]';

const usage = (problem: string) => new CliError(EXIT.usage, `${problem}\nusage: ${STRANDED_USAGE}`);

/**
 * Stranded work (ADR 0036) from the read models, as JSON: what GET /v1/stranded answers an admin,
 * at this machine's clock (or `--now`), with the thresholds of the same environment.
 */
export async function strandedCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, STRANDED_USAGE, { min: 0, max: 0 }, ['kind', 'agent', 'limit', 'now']);
  const { kind, agent, limit, now } = args.flags;
  if (kind !== undefined && (typeof kind !== 'string' || !(STRANDED_KINDS as readonly string[]).includes(kind)))
    throw usage(`--kind must be one of ${STRANDED_KINDS.join(', ')}`);
  if (agent !== undefined && (typeof agent !== 'string' || !ID_PATTERN.test(agent)))
    throw usage('--agent must be an agent id');
  if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,6}$/.test(limit)))
    throw usage('--limit must be a whole number');
  if (now !== undefined && (typeof now !== 'string' || !isRfc3339(now)))
    throw usage('--now takes an RFC 3339 instant (2026-01-01T00:00:00Z)');
  const thresholds = strandedThresholds(cliConfig(io));
  return withStores(io, async ({ pool }) => {
    const stranded = await new StrandedQueries(pool).list({
      scope: agent === undefined ? { all: true } : { all: false, agent_ids: [agent] },
      now: now === undefined ? new Date().toISOString() : new Date(now).toISOString(),
      thresholds,
      kind: kind as StrandedKind | undefined,
      limit: limit === undefined ? undefined : Number(limit),
    });
    io.stdout(`${JSON.stringify(stranded, null, 2)}\n`);
    return EXIT.ok;
  });
}
