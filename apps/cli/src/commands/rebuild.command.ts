import { timedRebuild } from '@app/application';
import { createProjectionRunner } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';
import { ProgressBar } from '../progress';

export const REBUILD_USAGE = 'rebuild [projection]';

/** Drops the read models and replays them from position 0 with the service's projection runner. */
export async function rebuildCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, REBUILD_USAGE, { min: 0, max: 1 });
  return withStores(io, async ({ pool, store }) => {
    const runner = createProjectionRunner(pool, store);
    const wanted = args.positionals[0];
    if (wanted !== undefined && wanted !== runner.name)
      throw new CliError(EXIT.usage, `unknown projection ${wanted} (known: ${runner.name})`);
    const head = await store.headPosition();
    // Positions may have gaps: the head is an upper bound of the event count, fine for a bar.
    const bar = new ProgressBar(io, `rebuilding ${runner.name}`, head === null ? 0 : Number(head) + 1);
    try {
      const result = await timedRebuild(runner, (applied) => bar.update(applied));
      bar.done();
      io.stdout(
        `rebuilt ${result.projection} from position 0: ${result.events} events in ${result.duration_ms} ms (${result.events_per_s} events/s)\n`,
      );
      return EXIT.ok;
    } catch (error) {
      bar.done();
      if (error instanceof Error && /^checkpoint .* is at /.test(error.message)) {
        throw new CliError(
          EXIT.conflict,
          `a running projector applied events during the rebuild (${error.message}): run it again, or use POST /v1/admin/projections/rebuild on the service`,
        );
      }
      throw error;
    }
  });
}
