import { eventually } from '@app/event-store/testing';
import type { CommandRecord } from './ack-log';
import { freshKey, type ReliabilityClient, type Reply } from './client';

/**
 * A command load for the scenarios: commands that succeed whatever order they run in (so a
 * retry after a crash is accepted too), spread over a few agents by concurrent workers.
 */
export interface LoadOptions {
  workers: number;
  /** Stop after this many commands in total (all workers). */
  commands?: number;
  /** Stop when this returns true (checked before each command). */
  until?: () => boolean;
  /** Called after each reply (a scenario kills the service after N acknowledgements). */
  onReply?: (record: CommandRecord, reply: Reply & { sentAt: number }) => void;
  timeoutMs?: number;
  /** A safety net: the load ends after this long whatever happens (default 120 s). */
  maxMs?: number;
}

export interface LoadResult {
  sent: number;
  acked: number;
  failed: number;
  /** Reply times of every command, ms. */
  latencies: number[];
}

/** Registers the agents (201, or 409 when a previous run did). */
export async function registerAgents(client: ReliabilityClient, agents: string[]): Promise<void> {
  for (const agent of agents) {
    const reply = await client.command(agent, 'POST', '/v1/agents', { agent_id: agent });
    if (reply.status !== 201 && reply.status !== 409)
      throw new Error(`cannot register ${agent}: ${reply.status} ${JSON.stringify(reply.body ?? reply.error)}`);
  }
}

/** One command for `agent`: create an item, update one it created, enqueue a message, or set a far timer. */
export function nextCommand(
  agent: string,
  items: string[],
  n: number,
): { method: string; path: string; body: unknown } {
  const base = `/v1/agents/${agent}`;
  const pick = n % 10;
  if (pick < 4 || items.length === 0) {
    return {
      method: 'POST',
      path: `${base}/work-items`,
      body: { work_item_id: `w-${freshKey('i')}`, objective: `objective ${n}` },
    };
  }
  if (pick < 7) {
    const item = items[n % items.length];
    return { method: 'PATCH', path: `${base}/work-items/${item}`, body: { objective: `objective ${n} revised` } };
  }
  if (pick < 9)
    return {
      method: 'POST',
      path: `${base}/messages`,
      body: { kind: 'operator_prompt', body: `prompt ${n}`, priority: 'normal' },
    };
  return {
    method: 'POST',
    path: `${base}/timers`,
    body: { fire_at: '2099-01-01T00:00:00.000Z', resume_text: `timer ${n}` },
  };
}

export async function runLoad(client: ReliabilityClient, agents: string[], options: LoadOptions): Promise<LoadResult> {
  const result: LoadResult = { sent: 0, acked: 0, failed: 0, latencies: [] };
  const items = new Map<string, string[]>(agents.map((agent) => [agent, []]));
  let n = 0;
  const deadline = Date.now() + (options.maxMs ?? 120_000);
  const worker = async (index: number) => {
    for (;;) {
      if (
        options.until?.() ||
        (options.commands !== undefined && result.sent >= options.commands) ||
        Date.now() > deadline
      )
        return;
      n += 1;
      result.sent += 1;
      const agent = agents[(index + n) % agents.length];
      const command = nextCommand(agent, items.get(agent)!, n);
      const sentAt = Date.now();
      const reply = await client.command(agent, command.method, command.path, command.body, {
        timeoutMs: options.timeoutMs,
      });
      result.latencies.push(reply.ms);
      if (reply.record.outcome === 'acked') {
        result.acked += 1;
        const created = (reply.body as { work_item?: { id?: string } })?.work_item?.id;
        if (command.method === 'POST' && created) items.get(agent)!.push(created);
      } else {
        result.failed += 1;
      }
      options.onReply?.(reply.record, { ...reply, sentAt });
      // A failing service (stopped, restarting) answers at once: do not spin on it. Time-based on
      // purpose: a pace for the load generator, nothing is awaited (the scenario watches the replies).
      if (reply.record.outcome !== 'acked') await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, index) => worker(index)));
  return result;
}

/** Sends every logged command again with its own key until each has a definite answer. */
export async function retryUntilDefinite(
  client: ReliabilityClient,
  records: CommandRecord[],
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const record of records) {
    await eventually(
      `a definite answer (not 5xx, not a network error) to command ${record.key} (${record.method} ${record.path})`,
      async () => {
        const reply = await client.retry(record);
        return { status: reply.status, error: reply.error, body: reply.body as unknown };
      },
      (reply) => reply.status !== null && reply.status < 500,
      { timeoutMs: Math.max(0, deadline - Date.now()), intervalMs: 100 },
    );
  }
}
