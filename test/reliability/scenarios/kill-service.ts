import { ReliabilityClient } from '../support/client';
import { checkHistory } from '../support/history';
import { registerAgents, retryUntilDefinite, runLoad } from '../support/workload';
import type { EmbeddedService } from './embedded-service';
import { between, type ScenarioResult, uniqueIds } from './scenario';

export interface KillServiceOptions {
  agents?: number;
  workers?: number;
  /** The service is killed once this many commands were acknowledged (random in the range). */
  killAfterAcks?: [number, number];
  /** Cycles of load, kill -9, restart on the same data directory. */
  cycles?: number;
}

/**
 * kill -9 of the all-in-one service (embedded Postgres, the default deployment) in the middle of
 * a command load, then a restart on the same data directory (the embedded server the killed
 * process left running is stopped and started again by the new one). The client retries every command it
 * sent with the same Idempotency-Key. Checked: every acknowledged command is stored once, the
 * retries of acknowledged commands answer the first reply and append nothing, commands in flight
 * at the kill are stored at most once, and the read models equal a rebuild.
 */
export async function killServiceMidLoad(
  host: EmbeddedService,
  options: KillServiceOptions = {},
): Promise<ScenarioResult> {
  const started = Date.now();
  const notes: ScenarioResult['notes'] = {};
  const client = new ReliabilityClient(host.service.baseUrl, 'tok-admin');
  const agents = uniqueIds('kill', options.agents ?? 4);
  await registerAgents(client, agents);
  let inFlightAtKill = 0;
  for (let cycle = 0; cycle < (options.cycles ?? 1); cycle++) {
    const [low, high] = options.killAfterAcks ?? [60, 120];
    const threshold = client.log.acked().length + between(low, high);
    let kill: Promise<void> | null = null;
    const victim = host.service;
    await runLoad(client, agents, {
      workers: options.workers ?? 6,
      until: () => kill !== null,
      onReply: () => {
        if (kill === null && client.log.acked().length >= threshold) kill = victim.kill9();
      },
      timeoutMs: 10_000,
    });
    await kill;
    inFlightAtKill += client.log.unknown().length;
    notes[`restart_${cycle}_ms`] = await host.restart();
    client.baseUrl = host.service.baseUrl;
    // The client's retries: same key, same body, for everything it ever sent.
    await retryUntilDefinite(client, client.log.all());
  }
  const report = await checkHistory({ url: await host.service.postgresUrl(), log: client.log });
  return {
    name: 'kill -9 of the service mid-load',
    report,
    notes: { ...notes, in_flight_at_kill: inFlightAtKill, duration_ms: Date.now() - started },
  };
}
