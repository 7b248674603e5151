import { spawnSync } from 'node:child_process';
import { describeIf, dockerAvailable, eventually } from '@app/event-store/testing';
import { ReliabilityClient, freshKey } from './support/client';
import { registerAgents } from './support/workload';

/**
 * EventStoreDB leader failover: the runtime of docker-compose's `cluster` profile (three nodes,
 * EVENTSTORE_CONNECTION_STRING naming the three) keeps taking writes when the leader's container
 * is stopped: the client finds the new leader through gossip, and no acknowledged write is lost.
 * Runs only where that cluster runs (docs/testing.md):
 *   EVENTSTORE_CONNECTION_STRING=esdb://eventstore-1:2113,eventstore-2:2113,eventstore-3:2113?tls=false \
 *     docker compose --profile cluster up -d --build
 *   EVENTSTORE_CLUSTER_RUNTIME_URL=http://localhost:3000 npm run test:esdb
 */
const runtimeUrl = process.env.EVENTSTORE_CLUSTER_RUNTIME_URL;
const token = process.env.EVENTSTORE_CLUSTER_TOKEN ?? 'change-me-admin';
/** The nodes' services and the host ports docker-compose.yml maps their HTTP port to. */
const NODES = [
  { service: 'eventstore-1', port: 2114 },
  { service: 'eventstore-2', port: 2115 },
  { service: 'eventstore-3', port: 2116 },
];

async function nodeState(port: number): Promise<string | null> {
  try {
    const reply = await fetch(`http://localhost:${port}/info`, { signal: AbortSignal.timeout(2000) });
    const info = (await reply.json()) as { state?: string };
    return info.state?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

const compose = (...args: string[]) =>
  spawnSync('docker', ['compose', '--profile', 'cluster', ...args], { encoding: 'utf8', timeout: 120_000 });

describeIf(
  Boolean(runtimeUrl) && dockerAvailable(),
  'EventStoreDB leader failover (three-node cluster)',
  'no EVENTSTORE_CLUSTER_RUNTIME_URL and Docker engine: the cluster profile of docker-compose.yml is not running',
  () => {
    jest.setTimeout(240_000);
    let stopped: string | null = null;
    afterAll(() => {
      if (stopped) compose('start', stopped);
    });

    it('keeps taking writes when the leader stops, and loses no acknowledged write', async () => {
      const client = new ReliabilityClient(runtimeUrl!, token);
      const agent = freshKey('failover');
      await registerAgents(client, [agent]);
      const write = (n: number) =>
        client.command(agent, 'POST', `/v1/agents/${agent}/work-items`, {
          work_item_id: `w-${n}`,
          objective: `objective ${n}`,
        });
      for (let n = 0; n < 10; n++) expect((await write(n)).status).toBe(201);

      const states = await Promise.all(NODES.map(async (node) => ({ ...node, state: await nodeState(node.port) })));
      const leader = states.find((node) => node.state === 'leader');
      expect(leader).toBeDefined();
      expect(compose('stop', leader!.service).status).toBe(0);
      stopped = leader!.service;

      // Writes go on: retried with their keys until the cluster has a new leader.
      let n = 10;
      await eventually(
        'a write acknowledged after the leader stopped',
        async () => (await write(n++)).status,
        (status) => status === 201,
        { timeoutMs: 120_000, intervalMs: 500 },
      );
      for (const record of client.log.unknown()) await client.retry(record);
      for (let k = 0; k < 10; k++) expect((await write(n++)).status).toBe(201);

      const acked = client.log.acked().filter((record) => record.path.endsWith('/work-items'));
      for (const record of acked) {
        const id = (record.body as { work_item_id: string }).work_item_id;
        const reply = await client.get(`/v1/agents/${agent}/work-items/${id}`);
        expect({ id, status: reply.status }).toEqual({ id, status: 200 });
      }
    });
  },
);
