import { runHealthChecks } from '@app/platform';
import { pingPostgres } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';

export const CHECK_USAGE = 'check';

/** Opens the stores the way the service does (Postgres, migrations, event store) and prints the health report. */
export async function checkCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, CHECK_USAGE, { min: 0, max: 0 });
  const report = await withStores(io, ({ pool, store }) =>
    runHealthChecks({ event_store: () => store.ping(), postgres: () => pingPostgres(pool) }),
  );
  io.stdout(`${JSON.stringify(report)}\n`);
  return report.status === 'ok' ? EXIT.ok : EXIT.storeUnreachable;
}
