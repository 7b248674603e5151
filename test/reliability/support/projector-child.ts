/**
 * A projection worker for the reliability suite, run as a child process and killed with SIGKILL:
 * the runtime's own runner (the read models, checkpoint `read_models`) on DATABASE_URL, with the
 * apply log written inside each batch's transaction. With PROJECTOR_HOLD=stdin it prints
 * `in-batch <first>..<last>` once a batch's rows, checkpoint and apply log are written but not
 * committed, then holds the batch open until a line arrives on stdin (or stdin closes): the test
 * lets the batches it wants commit and kills the worker inside the one it chose.
 */
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import type { AgentState } from '@app/domain';
import { PostgresEventStore } from '@app/event-store';
import { AGENT_STREAM_PREFIX, agentStateDecider } from '@app/core';
import { ProjectionRunner, READ_MODEL_PROJECTORS, READ_MODELS_PROJECTION } from '@app/read-models';
import { applyLogHook } from './apply-log';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const hold =
    process.env.PROJECTOR_HOLD === 'stdin' ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : null;
  const label = process.env.PROJECTOR_LABEL ?? `child-${process.pid}`;
  const pool = new Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  // The run's store (TEST_EVENT_STORE); the harness's module is loaded only on EventStoreDB, so the
  // Postgres child starts as fast as before (its start counts against the scenario's wait).
  const store =
    process.env.TEST_EVENT_STORE === 'esdb'
      ? await (await import('@app/event-store/testing')).openTestEventStore(pool, url, [AGENT_STREAM_PREFIX])
      : new PostgresEventStore(pool, { pollIntervalMs: 50 });
  const log = applyLogHook(label);
  const runner = new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
    name: READ_MODELS_PROJECTION,
    batchSize: Number(process.env.PROJECTOR_BATCH ?? 50),
    onError: (error) => process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`),
    onApplied: async (positions, client) => {
      await log(positions, client);
      if (hold) {
        process.stdout.write(`in-batch ${positions[0]}..${positions[positions.length - 1]}\n`);
        await hold.next();
      }
    },
  });
  const stop = async () => {
    await runner.stop();
    await store.close();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  await runner.start();
  process.stdout.write(`ready at ${runner.checkpoint}\n`);
}

main().catch((error) => {
  process.stderr.write(
    `projector child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
