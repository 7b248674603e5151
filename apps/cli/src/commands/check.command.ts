import { runHealthChecks } from '@app/platform';
import { DEFAULT_READY_MAX_LAG_SECONDS, pingPostgres, projectionReadiness } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../cli-io';
import { cliConfig, withStores } from '../cli-run';

export const CHECK_USAGE = 'check';

/**
 * Opens the stores the way the service does (Postgres, migrations, event store) and prints the
 * health report with each projection's readiness (as GET /health/ready): exit 5 when a store is
 * unreachable, 9 when a projection is stalled (a parked agent) or lagging.
 */
export async function checkCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, CHECK_USAGE, { min: 0, max: 0 });
  const maxLag = cliConfig(io).readyMaxLagSeconds ?? DEFAULT_READY_MAX_LAG_SECONDS;
  const report = await withStores(io, async ({ pool, store }) => {
    const health = await runHealthChecks({ event_store: () => store.ping(), postgres: () => pingPostgres(pool) });
    if (health.status !== 'ok') return { ...health, projections: [] };
    return { ...health, projections: await projectionReadiness(pool, await store.headPosition(), maxLag) };
  });
  io.stdout(`${JSON.stringify(report)}\n`);
  if (report.status !== 'ok') return EXIT.storeUnreachable;
  const blocked = report.projections.filter((p) => !p.ready);
  for (const p of blocked)
    io.stderr(
      p.reason === 'projection_stalled'
        ? `projection ${p.projection} is stalled: ${p.parked_agents} agent(s) parked, first dead letter at ${p.stalled_at} (npm run cli -- dead-letters list)\n`
        : `projection ${p.projection} is lagging: at ${p.checkpoint}, head ${p.head}, not moved for ${p.idle_seconds} s\n`,
    );
  return blocked.length > 0 ? EXIT.notReady : EXIT.ok;
}
