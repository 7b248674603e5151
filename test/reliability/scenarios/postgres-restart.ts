import { eventually } from '@app/event-store/testing';
import { ReliabilityClient, type Reply } from '../support/client';
import { checkHistory } from '../support/history';
import { startPostgres, stopPostgres } from '../support/postgres-control';
import { registerAgents, retryUntilDefinite, runLoad } from '../support/workload';
import type { EmbeddedService } from './embedded-service';
import { type ScenarioResult, uniqueIds } from './scenario';

export interface PostgresRestartOptions {
  /** fast: SIGINT (clean shutdown); immediate: SIGQUIT (no checkpoint, WAL replay on start: a crash). */
  mode?: 'fast' | 'immediate';
  outageMs?: number;
  agents?: number;
  workers?: number;
  /** A command answered later than this during the outage is not "failing fast". */
  failFastMs?: number;
  cycles?: number;
}

type Timed = Reply & { sentAt: number; at: number };

/**
 * The service owns its embedded Postgres (no DATABASE_URL); under a command load the server is
 * stopped from outside, kept down for a while, and started again on the same port. Checked:
 * while it is down every command fails fast with 503 `unavailable` (no 500, no hang) and
 * /health answers 503; after the restart the service reconnects by itself and commands succeed;
 * the client retries what failed with the same keys; then the history checker.
 */
export async function restartPostgresUnderLoad(
  host: EmbeddedService,
  options: PostgresRestartOptions = {},
): Promise<ScenarioResult> {
  const { service, pgDir } = host;
  const started = Date.now();
  const failFastMs = options.failFastMs ?? 2_500;
  const notes: ScenarioResult['notes'] = {};
  const problems: string[] = [];
  const client = new ReliabilityClient(service.baseUrl, 'tok-admin');
  const agents = uniqueIds('pg', options.agents ?? 4);
  await registerAgents(client, agents);
  let outageReplies = 0;
  let recoveryMs = 0;
  for (let cycle = 0; cycle < (options.cycles ?? 1); cycle++) {
    const replies: Timed[] = [];
    let done = false;
    const load = runLoad(client, agents, {
      workers: options.workers ?? 4,
      until: () => done,
      onReply: (_record, reply) => replies.push({ ...reply, at: Date.now() }),
      timeoutMs: 15_000,
    });
    const acked = () => replies.filter((r) => r.status !== null && r.status < 300).length;
    let down = 0;
    let restarting = 0;
    let up = 0;
    const health: number[] = [];
    try {
      await eventually('30 commands acknowledged before the outage', acked, (n) => n >= 30, { timeoutMs: 20_000 });
      const postmaster = await stopPostgres(pgDir, options.mode ?? 'immediate');
      down = Date.now();
      while (Date.now() - down < (options.outageMs ?? 1_500)) {
        health.push((await client.get('/health', { timeoutMs: 5_000 })).status ?? 0);
        // Time-based on purpose: the outage lasts outageMs whatever happens; /health is sampled along the way.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      restarting = Date.now();
      await startPostgres(postmaster);
      up = Date.now();
      const afterRestart = () => replies.find((r) => r.sentAt >= up && r.status !== null && r.status < 300);
      const recovered = await eventually(
        'a command sent after the restart to succeed',
        afterRestart,
        (reply) => reply !== undefined,
        { timeoutMs: 30_000 },
      );
      recoveryMs = Math.max(recoveryMs, recovered!.at - up);
      const ackedBefore = acked();
      await eventually(
        `30 more commands acknowledged after the restart (from ${ackedBefore})`,
        acked,
        (n) => n >= ackedBefore + 30,
        { timeoutMs: 30_000 },
      );
    } catch (error) {
      const last = replies.slice(-5).map((r) => `${r.status} ${r.error ?? JSON.stringify(r.body)}`.slice(0, 300));
      throw new Error(
        `${(error as Error).message}\nlast replies:\n${last.join('\n')}\nservice output:\n${service.output.text(30)}`,
      );
    } finally {
      done = true;
      await load;
    }

    // Sent and answered while the server was down (a request in flight at the stop may end either way).
    const during = replies.filter((r) => r.sentAt >= down + 100 && r.at <= restarting);
    outageReplies += during.length;
    if (during.length === 0) problems.push(`cycle ${cycle}: no command was answered during the outage`);
    for (const reply of during) {
      const code = (reply.body as { error?: { code?: string } })?.error?.code;
      if (reply.status !== 503 || code !== 'unavailable')
        problems.push(
          `cycle ${cycle}: during the outage a command answered ${reply.status} ${code ?? reply.error ?? ''} instead of 503 unavailable`,
        );
      if (reply.ms > failFastMs)
        problems.push(`cycle ${cycle}: during the outage a command took ${reply.ms} ms (not failing fast)`);
    }
    if (health.some((status) => status !== 503))
      problems.push(`cycle ${cycle}: /health answered ${health.join(',')} while Postgres was down`);
    const maxMs = Math.max(0, ...during.map((r) => r.ms));
    notes[`cycle_${cycle}_outage`] =
      `${during.length} commands, all ${[...new Set(during.map((r) => r.status))].join('/')} in <= ${maxMs} ms`;
    await retryUntilDefinite(client, client.log.unknown());
  }
  const report = await checkHistory({ url: await service.postgresUrl(), log: client.log });
  report.problems.push(...problems);
  return {
    name: `embedded Postgres stopped (${options.mode ?? 'immediate'}) and restarted under load`,
    report,
    notes: { ...notes, outage_replies: outageReplies, recovery_ms: recoveryMs, duration_ms: Date.now() - started },
  };
}
