import { timedRebuild } from '@app/application';
import { createProjectionRunner } from '@app/read-models';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { withStores } from '../cli-run';
import { ThroughputProgress } from '../progress';

export const REBUILD_USAGE = 'rebuild [projection]';

/**
 * Replays the read models from position 0 into shadow tables with the service's projection
 * runner and swaps them in atomically: a running service keeps serving the old models meanwhile.
 */
export async function rebuildCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, REBUILD_USAGE, { min: 0, max: 1 });
  return withStores(io, async ({ pool, store }) => {
    const runner = createProjectionRunner(pool, store);
    const wanted = args.positionals[0];
    if (wanted !== undefined && wanted !== runner.name)
      throw new CliError(EXIT.usage, `unknown projection ${wanted} (known: ${runner.name})`);
    const head = await store.headPosition();
    // Positions may have gaps: the head is an upper bound of the event count, fine for an ETA.
    const total = (position: bigint | null) => (position === null ? 0 : Number(position) + 1);
    const progress = new ThroughputProgress(io, `rebuilding ${runner.name}`, total(head));
    try {
      const result = await timedRebuild(runner, (applied, upTo) => progress.update(applied, total(upTo ?? null)));
      progress.done();
      io.stdout(
        `rebuilt ${result.projection} from position 0: ${result.events} events in ${result.duration_ms} ms (${result.events_per_s} events/s)\n`,
      );
      return EXIT.ok;
    } catch (error) {
      progress.done();
      if (error instanceof Error && (error as { code?: unknown }).code === 'rebuild_running') {
        throw new CliError(EXIT.conflict, `${error.message}: wait for it to finish`);
      }
      throw error;
    }
  });
}
