import { AgentHost, RuntimeClient, type ModelAdapter } from '@agent-runtime/client';
import type { Check } from '../report';
import type { Figure } from '../support/context';
import { startRuntimeFixture } from '../support/runtime';
import { fleetPart } from './10-fleet';
import { delay, percentiles } from '../support/stats';

const TARGET_P99_MS = 50;

/** A model that answers at once without tools: the turn is opened, one round, completed. */
const instantModel: ModelAdapter = {
  complete: async () => ({ text: 'ok', tool_calls: [], finish_reason: 'stop' }),
};

/**
 * Wake latency: what a person feels when they message an agent. One AgentHost (one process) runs
 * every agent's long-poll loop; a second client sends operator messages, one agent at a time.
 */
export const wakeFigure: Figure = {
  id: 10,
  title: 'Wake latency: operator message acknowledged to the host turn opened',
  async run(ctx) {
    const agentCount = ctx.scale(100, 5);
    const messages = ctx.scale(150, 10);
    const rate = ctx.scale(5, 20);
    const runtime = await startRuntimeFixture(ctx.pg, agentCount, {
      role: 'api,projector',
      workItems: false,
      prefix: 'wake',
    });
    // Without keep-alive: an aborted long poll would otherwise keep its connection until the server's keep-alive timeout.
    const options = { url: runtime.httpUrl, token: runtime.token, headers: { connection: 'close' } };
    const hostClient = new RuntimeClient(options);
    const sender = new RuntimeClient(options);
    const reader = new RuntimeClient(options);
    const opened = new Map<string, (at: number) => void>();
    const ended = new Map<string, () => void>();
    const host = new AgentHost({ client: hostClient, model: instantModel, agents: runtime.agents, waitMs: 30_000 });
    host.on((event) => {
      if (event.type === 'turn_opened') opened.get(event.agent_id)?.(performance.now());
      if (event.type === 'turn_ended') ended.get(event.agent_id)?.();
    });
    const wake: number[] = [];
    const fromSend: number[] = [];
    const lag: number[] = [];
    const chains = new Map<string, Promise<void>>();
    const one = async (agent: string, measure: boolean) => {
      const turnOpened = new Promise<number>((resolve) => opened.set(agent, resolve));
      const turnEnded = new Promise<void>((resolve) => ended.set(agent, resolve));
      const sent = performance.now();
      const reply = await sender.enqueueMessage(agent, { kind: 'operator_prompt', body: 'wake up' });
      const acked = performance.now();
      // A read that waits until the read models include the message (min_position: woken, not polled).
      const projected = reader.getAgent(agent, { minPosition: reply.position }).then(() => performance.now());
      const at = await turnOpened;
      const readable = await projected;
      await turnEnded;
      if (!measure) return;
      wake.push(at - acked);
      fromSend.push(at - sent);
      lag.push(readable - acked);
    };
    // Open loop over the agents in turn, one message in flight per agent.
    const run = async (count: number, measure: boolean) => {
      const start = performance.now();
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const due = (i / rate) * 1000 - (performance.now() - start);
        if (due > 1) await delay(due);
        const agent = runtime.agents[i % runtime.agents.length];
        const next = (chains.get(agent) ?? Promise.resolve()).then(() => one(agent, measure));
        chains.set(agent, next);
        inFlight.push(next);
      }
      await Promise.all(inFlight);
    };
    try {
      host.start();
      await delay(ctx.scale(2_000, 300)); // every loop is waiting in its long poll
      await run(agentCount, false);
      await run(messages, true);
    } finally {
      await host.stop({ turns: 'finish' });
      hostClient.close();
      sender.close();
      reader.close();
      await runtime.close();
    }
    // The scheduler's start on fleets of growing size (issue 18 item 3): its own part of this figure.
    const fleet = await fleetPart(ctx);
    const [w50, w90, w99, wmax] = percentiles(wake, 50, 90, 99, 100);
    const [s50, s90, s99, smax] = percentiles(fromSend, 50, 90, 99, 100);
    const [l50, l90, l99, lmax] = percentiles(lag, 50, 90, 99, 100);
    ctx.log(`  wake p50 ${w50.toFixed(1)} ms, p99 ${w99.toFixed(1)} ms; projection lag p50 ${l50.toFixed(1)} ms`);
    const baseline = (value: number) => ({ baseline: { value, unit: 'ms', label: 'projection lag, same run' } });
    const checks: Check[] = [
      {
        name: `wake latency p50 (message acknowledged → host turn opened), ${agentCount} agents long-polling`,
        measured: { value: w50, unit: 'ms' },
        ...baseline(l50),
        ...(l50 > 0 ? { ratio: w50 / l50 } : {}),
      },
      {
        name: 'wake latency p99',
        measured: { value: w99, unit: 'ms' },
        ...baseline(l99),
        ...(l99 > 0 ? { ratio: w99 / l99 } : {}),
        target: `≤ ${TARGET_P99_MS} ms`,
        met: w99 <= TARGET_P99_MS,
      },
      ...fleet.checks,
    ];
    const notes: string[] = [
      'The turn opens from the event store (the long poll is woken by the store subscription, ADR 0028), not from the read models: ' +
        "the projection lag beside it is the time until a read with the message's position as `min_position` answered (the read models include it).",
    ];
    if (w99 > TARGET_P99_MS) {
      notes.push(
        `Missed: p99 ${w99.toFixed(1)} ms > ${TARGET_P99_MS} ms. A wake is the enqueue's commit, the store's NOTIFY (coalesced) ` +
          'to the process subscription, a scheduler step (load, decide, StartTurn append) and the reply; the tail follows the ' +
          'append path under concurrent commits (figure 3) and the 2 shared cores of this machine.',
      );
    }
    return {
      method:
        `${agentCount} agents on one runtime (RUNTIME_ROLE=api,projector: the API with its long-poll activations and the projector), ` +
        `each run by an AgentHost loop in one host (one RuntimeClient over HTTP, wait_ms 30 s, a model that answers at once). ` +
        `A second client sends ${messages} operator messages, ${rate}/s open loop, round-robin over the agents (an agent gets its next ` +
        `message once its turn ended), after one unmeasured message per agent. Wake: from the enqueue's reply received to the ` +
        "host's turn_opened event (the activation reply received). Projection lag: from the same reply to the answer of a read " +
        '(`GET /v1/agents/{a}?min_position=<the reply position>`, sent at once by a third client; ADR 0023) in the same run. ' +
        fleet.method,
      checks,
      tables: [
        {
          title: `Latency in ms (${wake.length} messages)`,
          columns: ['measured', 'p50', 'p90', 'p99', 'max'],
          rows: [
            ['wake: enqueue acknowledged → turn opened', w50, w90, w99, wmax],
            ['wake: enqueue sent → turn opened', s50, s90, s99, smax],
            ['projection lag: enqueue acknowledged → read at its position answered', l50, l90, l99, lmax],
          ],
        },
        ...fleet.tables,
      ],
      notes: [...notes, ...fleet.notes],
    };
  },
};
