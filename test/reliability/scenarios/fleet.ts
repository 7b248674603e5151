import { Pool } from 'pg';
import { agentStream } from '@app/core';
import { PostgresEventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { decisionsOf } from '../../e2e/ownership/fleet-support';
import { AckLog } from '../support/ack-log';
import { freshKey, ReliabilityClient } from '../support/client';
import type { Fleet, Replica } from '../support/fleet';
import { checkHistory } from '../support/history';
import { nextCommand, registerAgents, retryUntilDefinite } from '../support/workload';
import { between, type ScenarioResult, uniqueIds } from './scenario';

export interface FleetScenarioOptions {
  /** Agents of the workload; the first half have a fake host completing their turns (default 8). */
  agents?: number;
  /** Concurrent command senders (default 4). */
  workers?: number;
  /** Acknowledged commands at which one api, the active projector and one scheduler replica are killed. */
  killAt?: { api: number; projector: number; scheduler: number };
  /** Acknowledged commands after the scheduler's kill before the load stops (default 60). */
  after?: number;
  /** Start a new replica for each one killed once the load ends (the soak's form). */
  restart?: boolean;
}

export interface FleetResult extends ScenarioResult {
  /** Per agent, how late the scheduler fired the timer that fell due just after a scheduler replica was killed. */
  probes: Array<{ agent: string; lateMs: number; byWorker: boolean; afterKillMs: number | null; refused?: number }>;
  /** Decision keys recorded more than once (`agent: key`). */
  duplicateKeys: string[];
  /** What was killed, with the replica's name. */
  killed: string[];
}

/** Unreferenced: a pacing timer never keeps the process alive. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * A random multi-agent workload over HTTP through every api replica of a fleet (items, updates,
 * messages, waits, far timers; fake hosts activating, reporting a round and completing turns),
 * with `kill -9` of one api replica, then of the projector holding the projector lease, then of a
 * scheduler replica holding shards, each once the load has reached its number of
 * acknowledgements. Right after the scheduler's kill every agent gets a timer due 0.5 s after
 * it: the agents of the dead replica's shards can only be acted on once a survivor took its
 * shards over. Then the client retries what it could not know, and the checker runs: acknowledged
 * commands stored once, read models equal a rebuild; beside it the decision keys and the timers.
 */
export async function fleetUnderKills(fleet: Fleet, options: FleetScenarioOptions = {}): Promise<FleetResult> {
  const started = Date.now();
  const log = new AckLog();
  const clients = fleet.live('api').map((replica) => ({
    replica,
    client: new ReliabilityClient(replica.service.baseUrl, 'tok-admin', log),
  }));
  let turn = 0;
  /** A client on a live api replica, in turn (a load balancer's round robin). */
  const client = () => {
    const live = clients.filter((entry) => !entry.replica.killed);
    return live[turn++ % live.length].client;
  };
  const agents = uniqueIds('fleet', options.agents ?? 8);
  const hosted = agents.slice(0, Math.ceil(agents.length / 2));
  await registerAgents(client(), agents);

  let stop = false;
  const killed: Replica[] = [];
  const kill = async (replica: Replica | undefined, what: string) => {
    if (!replica) throw new Error(`no live ${what} to kill:\n${fleet.output()}`);
    await fleet.kill9(replica);
    killed.push(replica);
  };
  const untilAcks = async (count: number) => {
    const deadline = Date.now() + 120_000;
    // Commands that append (activations answering "nothing to do" do not count).
    const appended = () => log.acked().filter((record) => record.appends).length;
    while (appended() < count && Date.now() < deadline) await sleep(25);
  };
  const killAt = options.killAt ?? { api: 40, projector: 80, scheduler: 120 };
  let probeFrom = '';
  /** Agents whose probe timer the service refused (status), after the retries of a 429. */
  const refusedProbes = new Map<string, number>();
  let killedAt = 0;
  const director = async () => {
    try {
      await untilAcks(killAt.api);
      const apis = fleet.live('api');
      await kill(apis[between(0, apis.length - 1)], 'api replica');
      await untilAcks(killAt.projector);
      await kill(await fleet.leaseHolder('projector', 'projector'), 'projector holding the lease');
      await untilAcks(killAt.scheduler);
      // Kill first, then give every agent a timer due 0.5 s after the kill (already due if the
      // request is slower): those of the dead replica's shards wait for a survivor to claim them.
      await kill(await fleet.leaseHolder('scheduler', 'scheduler'), 'scheduler holding shards');
      killedAt = Date.now();
      probeFrom = new Date(killedAt).toISOString();
      const fireAt = new Date(killedAt + 500).toISOString();
      // The senders may use the whole per-token rate: a probe refused with 429 is sent again with its
      // key (as a client honouring Retry-After would), so that every agent's probe exists.
      const createProbe = async (agent: string) => {
        const key = freshKey('probe');
        const giveUpAt = Date.now() + 15_000;
        for (;;) {
          const reply = await client().command(
            agent,
            'POST',
            `/v1/agents/${agent}/timers`,
            { fire_at: fireAt, resume_text: 'probe' },
            { key },
          );
          if (reply.status !== 429 || Date.now() > giveUpAt) return reply;
          await sleep(100);
        }
      };
      const probes = await Promise.all(agents.map(createProbe));
      await retryUntilDefinite(
        client(),
        probes.map((probe) => probe.record).filter((record) => record.outcome === 'unknown'),
      );
      for (const probe of probes)
        if (probe.record.outcome === 'refused') refusedProbes.set(probe.record.agent, probe.record.status ?? 0);
      await untilAcks(killAt.scheduler + (options.after ?? 60));
    } finally {
      stop = true;
    }
  };

  let n = 0;
  const items = new Map<string, string[]>(agents.map((agent) => [agent, []]));
  const sender = async (index: number) => {
    while (!stop) {
      n += 1;
      const agent = agents[(index + n) % agents.length];
      const mine = items.get(agent)!;
      const command =
        n % 11 === 10 && mine.length > 0
          ? {
              method: 'POST',
              path: `/v1/agents/${agent}/work-items/${mine[n % mine.length]}/wait`,
              body: { wake: 'operator_input', reason: `wait ${n}` },
            }
          : nextCommand(agent, mine, n);
      const reply = await client().command(agent, command.method, command.path, command.body, { timeoutMs: 15_000 });
      const created = (reply.body as { work_item?: { id?: string } } | undefined)?.work_item?.id;
      if (reply.record.outcome === 'acked' && command.path.endsWith('/work-items') && created) mine.push(created);
      // A failing replica answers at once: do not spin on it (a pace for the load generator).
      if (reply.record.outcome !== 'acked') await sleep(20);
    }
  };
  const host = async (agent: string) => {
    const base = `/v1/agents/${agent}`;
    while (!stop) {
      const activation = await client().command(
        agent,
        'POST',
        `${base}/activations`,
        { lease_ttl_ms: 10_000 },
        { appends: false, timeoutMs: 15_000 },
      );
      const opened = activation.body?.turn?.turn_id as string | undefined;
      if (!opened) {
        await sleep(100); // nothing to do now: a host's poll interval
        continue;
      }
      await client().command(agent, 'POST', `${base}/turns/${opened}/rounds`, {
        round_id: `r-${freshKey('r')}`,
        text: 'working',
        tool_calls: [],
      });
      await client().command(agent, 'POST', `${base}/turns/${opened}/terminal`, {
        terminal_kind: 'completed',
        last_assistant_message: 'done',
      });
    }
  };
  await Promise.all([
    director(),
    ...Array.from({ length: options.workers ?? 4 }, (_, index) => sender(index)),
    ...hosted.map(host),
  ]);

  // The client's retries of everything whose outcome it could not know (activations are not retried:
  // a retry would wait for a turn again), through a live replica.
  const unknown = log.unknown().filter((record) => !record.path.endsWith('/activations'));
  await retryUntilDefinite(client(), unknown, 60_000);

  const pool = new Pool({ connectionString: fleet.url, max: 2 });
  pool.on('error', () => undefined);
  const store = new PostgresEventStore(pool);
  const probes: FleetResult['probes'] = [];
  const duplicateKeys: string[] = [];
  try {
    for (const agent of agents) {
      const refused = refusedProbes.get(agent);
      if (refused !== undefined) {
        probes.push({ agent, lateMs: Infinity, byWorker: false, afterKillMs: null, refused });
        continue;
      }
      const fired = await eventually(
        `the probe timer of ${agent} to fire`,
        async () =>
          (await store.readStream(agentStream(agent))).find(
            (event) => event.type === 'TimerFired' && String(event.data.fire_at) >= probeFrom,
          ),
        (event) => event !== undefined,
        { timeoutMs: fleet.leaseTtlMs + 30_000, intervalMs: 100 },
      ).catch(() => undefined);
      probes.push({
        agent,
        lateMs: fired ? Date.parse(String(fired.data.fired_at)) - Date.parse(String(fired.data.fire_at)) : Infinity,
        byWorker: fired !== undefined && typeof fired.metadata.lease_owner === 'string',
        afterKillMs: fired ? Date.parse(String(fired.data.fired_at)) - killedAt : null,
      });
      const decisions = await decisionsOf(store, agent);
      for (const key of decisions.duplicateKeys) {
        // Which writers recorded it (revision, lease owner or none: an activation), for the failure message.
        const by = decisions.events
          .filter(
            (event) => `key:${(event.data.decision as { idempotency_key: string | null }).idempotency_key}` === key,
          )
          .map((event) => `@${event.revision} ${String(event.metadata.lease_owner ?? 'activation')}`);
        duplicateKeys.push(`${agent}: ${key} (${by.join(', ')})`);
      }
    }
  } finally {
    await store.close();
    await pool.end();
  }

  let restartMs = 0;
  if (options.restart) {
    const t0 = Date.now();
    for (const replica of killed) await fleet.startReplica(replica.role, Number(replica.name.split('-')[1]) + 10);
    restartMs = Date.now() - t0;
  }
  const report = await checkHistory({ url: fleet.url, log, waitMs: fleet.leaseTtlMs + 30_000 });
  return {
    name: 'kill -9 of one replica of each role in a fleet',
    report,
    probes,
    duplicateKeys,
    killed: killed.map((replica) => replica.name),
    notes: {
      killed: killed.map((replica) => `${replica.name}:${replica.service.pid}`).join(' '),
      startup_ms: fleet.replicas.map((replica) => `${replica.name}:${replica.service.startupMs}`).join(' '),
      unknown_retried: unknown.length,
      probe_max_late_ms: Math.max(...probes.map((probe) => probe.lateMs)),
      probes_by_worker: probes.filter((probe) => probe.byWorker).length,
      probe_max_after_kill_ms: Math.max(...probes.map((probe) => probe.afterKillMs ?? Infinity)),
      duplicate_decision_keys: duplicateKeys.length,
      ...(options.restart ? { restart_ms: restartMs } : {}),
      duration_ms: Date.now() - started,
    },
  };
}

/** The fleet's own checks as problem lines (the soak's tally): duplicate decision keys, late or missing probes. */
export function fleetProblems(result: FleetResult, leaseTtlMs: number): string[] {
  const late = result.probes.filter((probe) => probe.refused === undefined && !(probe.lateMs <= leaseTtlMs + 5_000));
  return [
    ...result.duplicateKeys.map((key) => `decision key recorded twice: ${key}`),
    ...result.probes
      .filter((probe) => probe.refused !== undefined)
      .map((probe) => `${probe.agent}: the probe timer was refused (${probe.refused}): nothing to fire`),
    ...late.map((probe) => `${probe.agent}: the timer due after the scheduler's kill fired ${probe.lateMs} ms late`),
  ];
}
