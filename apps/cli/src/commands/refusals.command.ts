import { RefusalLog } from '@app/application';
import { clampListLimit, ID_PATTERN } from '@app/domain';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';

export const REFUSALS_USAGE = 'refusals [--agent <id>] [--limit <n>]';

/**
 * The refusals audit (ADR 0032): commands that wrote nothing (refused, a trigger on a resolved
 * intent, a no-op control), newest first, as JSON: what GET /v1/admin/refusals answers.
 */
export async function refusalsCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, REFUSALS_USAGE, { min: 0, max: 0 }, ['agent', 'limit']);
  const agent = args.flags.agent;
  if (agent !== undefined && (typeof agent !== 'string' || !ID_PATTERN.test(agent)))
    throw new CliError(EXIT.usage, `--agent must be an agent id\nusage: ${REFUSALS_USAGE}`);
  const rawLimit = args.flags.limit;
  if (rawLimit !== undefined && (typeof rawLimit !== 'string' || !/^\d{1,6}$/.test(rawLimit)))
    throw new CliError(EXIT.usage, `--limit must be a whole number\nusage: ${REFUSALS_USAGE}`);
  const limit = clampListLimit(rawLimit === undefined ? undefined : Number(rawLimit));
  return withStores(io, async ({ pool }) => {
    const refusals = await new RefusalLog(pool).list(agent, limit);
    io.stdout(`${JSON.stringify(refusals, null, 2)}\n`);
    return EXIT.ok;
  });
}
