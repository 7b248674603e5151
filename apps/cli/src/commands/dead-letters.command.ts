import { userInfo } from 'node:os';
import { DeadLettersAdmin } from '@app/application';
import { ApiError } from '@app/core';
import { createProjectionRunner, READ_MODELS_PROJECTION } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';

export const DEAD_LETTERS_USAGE = 'dead-letters list | skip <position> --reason <text> | retry <position>';

/** The actor the audit records for the CLI (it holds no token: the database itself is its credential). */
export function cliActor(io: CliIo): string {
  let user = io.env.USER ?? io.env.LOGNAME;
  try {
    user ??= userInfo().username;
  } catch {
    user ??= 'unknown';
  }
  return `cli:${user}`;
}

/** Lists the read models' dead letters and parked agents, or skips / retries one (audited, ADR 0015). */
export async function deadLettersCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const [action, position] = args.positionals;
  if (action === 'list') expectArgs(args, DEAD_LETTERS_USAGE, { min: 1, max: 1 });
  else if (action === 'skip' || action === 'retry')
    expectArgs(args, DEAD_LETTERS_USAGE, { min: 2, max: 2 }, ['reason']);
  else throw new CliError(EXIT.usage, `usage: ${DEAD_LETTERS_USAGE}`);
  const reason = typeof args.flags.reason === 'string' ? args.flags.reason : undefined;
  return withStores(io, async ({ pool, store }) => {
    const runner = createProjectionRunner(pool, store);
    const admin = new DeadLettersAdmin(pool, (name) => (name === runner.name ? runner : null));
    try {
      if (action === 'list') {
        const { letters, parked_agents } = await admin.list(READ_MODELS_PROJECTION);
        io.stdout(`${JSON.stringify({ projection: READ_MODELS_PROJECTION, letters, parked_agents }, null, 2)}\n`);
        return EXIT.ok;
      }
      const result =
        action === 'skip'
          ? await admin.skip(READ_MODELS_PROJECTION, position, cliActor(io), reason)
          : await admin.retry(READ_MODELS_PROJECTION, position, cliActor(io), reason);
      io.stdout(`${JSON.stringify(result)}\n`);
      return result.outcome === 'failed' || result.parked_at !== null ? EXIT.conflict : EXIT.ok;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const code = error.code === 'not_found' ? EXIT.notFound : error.code === 'conflict' ? EXIT.conflict : EXIT.usage;
      throw new CliError(code, error.message);
    }
  });
}
