import { replayDecisions, type AnyEvent } from '@app/domain';
import type { StoredEvent } from '@app/event-store';
import { agentStream, toDomainEvent } from '@app/core';
import { SCHEDULER_WORKER, type SchedulerWorker } from '@app/application';
import { FixedClock } from '@app/platform';
import { projected } from '../support/http';
import { between, uniqueIds } from './scenarios/scenario';
import { freshKey } from './support/client';
import { assertCleanHistory } from './support/history';
import { type Deployment, startDeployment } from './support/in-process';
import { registerAgents } from './support/workload';

jest.setTimeout(120_000);

/**
 * The scheduler worker runs in-process (RUNTIME_ROLE=all) on a clock the spec moves, against
 * hosts (activations, rounds, terminals) and callers (commands) hitting the same agents at once.
 */
describe('races and crashes around the scheduler', () => {
  const clock = new FixedClock(new Date());
  let deployment: Deployment;
  let worker: SchedulerWorker;
  const streamOf = (agent: string) => deployment.store.readStream(agentStream(agent));
  const rest = async (agent: string) => {
    for (let pass = 0; pass < 30; pass++) {
      const before = (await streamOf(agent)).length;
      worker.poke(agent);
      await worker.idle();
      if ((await streamOf(agent)).length === before) return;
    }
    throw new Error(`the scheduler never came to rest for ${agent}`);
  };
  const activate = (agent: string, lease_ttl_ms = 60_000) =>
    deployment.client.command(agent, 'POST', `/v1/agents/${agent}/activations`, { lease_ttl_ms }, { appends: false });

  beforeAll(async () => {
    deployment = await startDeployment('sched', { scheduler: true, clock });
    worker = deployment.app.runtime.app.get<SchedulerWorker>(SCHEDULER_WORKER);
  });
  afterAll(() => deployment?.close());

  it('a scheduler decision racing commands on the same agent: every effect once, every recorded decision replays', async () => {
    const { client } = deployment;
    const agents = uniqueIds('schedrace', 3);
    await registerAgents(client, agents);
    const turnsClosed: string[] = [];
    const caller = async (agent: string) => {
      const items: string[] = [];
      for (let n = 0; n < 24; n++) {
        const base = `/v1/agents/${agent}`;
        const step = n % 6;
        if (step === 0)
          await client.command(agent, 'POST', `${base}/messages`, { kind: 'operator_prompt', body: `prompt ${n}` });
        else if (step === 1) {
          const reply = await client.command(agent, 'POST', `${base}/work-items`, {
            work_item_id: `w-${n}`,
            objective: `item ${n}`,
          });
          if (reply.status === 201) items.push(`w-${n}`);
        } else if (step === 2 && items.length > 0)
          await client.command(
            agent,
            'POST',
            `${base}/work-items/${items[n % items.length]}/pick`,
            { reason: `switch ${n}` },
            { appends: false },
          );
        else if (step === 3)
          await client.command(
            agent,
            'POST',
            `${base}/wake-hints`,
            { source: 'ci', reason: `build ${n}`, body: `build ${n} finished` },
            { appends: false },
          );
        else if (step === 4 && items.length > 0)
          await client.command(agent, 'PATCH', `${base}/work-items/${items[n % items.length]}`, {
            objective: `item ${n} revised`,
          });
        else
          await client.command(agent, 'POST', `${base}/timers`, {
            duration_ms: between(1, 5) * 60_000,
            resume_text: `timer ${n}`,
          });
      }
    };
    const host = async (agent: string) => {
      for (let n = 0; n < 12; n++) {
        const reply = await activate(agent);
        const turn = reply.body?.turn?.turn_id as string | undefined;
        if (!turn) continue;
        const base = `/v1/agents/${agent}/turns/${turn}`;
        await client.command(agent, 'POST', `${base}/rounds`, {
          round_id: `r-${freshKey('r')}`,
          text: 'working',
          tool_calls: [],
        });
        const end = await client.command(agent, 'POST', `${base}/terminal`, {
          terminal_kind: 'completed',
          last_assistant_message: `done ${n}`,
        });
        expect(end.status).toBe(200);
        turnsClosed.push(turn);
      }
    };
    await Promise.all(agents.flatMap((agent) => [caller(agent), host(agent), host(agent)]));
    for (const agent of agents) await rest(agent);
    await projected(deployment.app);
    expect(turnsClosed.length).toBeGreaterThan(0);

    for (const agent of agents) {
      const events = await streamOf(agent);
      const replay = replayDecisions(events.map((e) => toDomainEvent(e) as AnyEvent));
      expect({ agent, mismatches: replay.mismatches }).toEqual({ agent, mismatches: [] });
      expect(replay.entries.length).toBeGreaterThan(0);
      const ticks = events.filter((e) => e.type === 'SystemTickEmitted').map((e) => String(e.data.idempotency_key));
      expect(ticks.length).toBe(new Set(ticks).size);
      for (const [message, count] of perMessage(events, 'MessageProcessed'))
        expect({ message, processed: count }).toEqual({ message, processed: 1 });
      for (const [message, count] of perMessage(events, 'TurnStarted')) {
        expect({ message, started: count }).toEqual({
          message,
          started: 1 + (perMessage(events, 'MessageRequeued').get(message) ?? 0),
        });
      }
    }
    assertCleanHistory(await deployment.check());
  });

  it('an agent host vanishing mid-turn: the lease expires, the turn is interrupted and its message is replayed once', async () => {
    const { client } = deployment;
    const agents = uniqueIds('vanish', 3);
    await registerAgents(client, agents);
    const first = new Map<string, { turn: string; message: string }>();
    for (const agent of agents) {
      await client.command(agent, 'POST', `/v1/agents/${agent}/messages`, {
        kind: 'operator_prompt',
        body: 'do the thing',
      });
      await rest(agent);
      const activation = await activate(agent, 5_000);
      expect(activation.body.decision).toMatchObject({ kind: 'StartModelTurn' });
      const turn = activation.body.turn.turn_id as string;
      await client.command(agent, 'POST', `/v1/agents/${agent}/turns/${turn}/rounds`, {
        round_id: `r-${freshKey('r')}`,
        text: 'half way',
        tool_calls: [{ tool_call_id: 'tc-1', name: 'shell' }],
      });
      first.set(agent, { turn, message: activation.body.message.id });
      // The host vanishes here: no heartbeat, no terminal. Callers keep writing.
      await client.command(agent, 'POST', `/v1/agents/${agent}/work-items`, {
        work_item_id: 'w-meanwhile',
        objective: 'written while the host is gone',
      });
    }
    clock.advance(6_000);
    await Promise.all(agents.map(rest));
    for (const agent of agents) {
      const { turn, message } = first.get(agent)!;
      const late = await client.command(agent, 'POST', `/v1/agents/${agent}/turns/${turn}/heartbeat`, {});
      expect(late.body.error).toMatchObject({ code: 'invariant_violated', details: { rule: 'turn_not_open' } });
      const replay = await activate(agent);
      expect(replay.body.message).toMatchObject({ id: message, interrupt_count: 1 });
      const second = replay.body.turn.turn_id as string;
      expect(second).not.toBe(turn);
      const end = await client.command(agent, 'POST', `/v1/agents/${agent}/turns/${second}/terminal`, {
        terminal_kind: 'completed',
        last_assistant_message: 'done after all',
      });
      expect(end.status).toBe(200);
    }
    clock.advance(120_000);
    await Promise.all(agents.map(rest));
    for (const agent of agents) {
      const { turn, message } = first.get(agent)!;
      // The agent may well start another turn (a tick for its queued item), but never on that message again.
      const again = await activate(agent);
      expect(again.body.message?.id).not.toBe(message);
      const events = await streamOf(agent);
      expect(perMessage(events, 'TurnStarted').get(message)).toBe(2);
      expect(perMessage(events, 'MessageRequeued').get(message)).toBe(1);
      expect(perMessage(events, 'MessageProcessed').get(message)).toBe(1);
      expect(
        events.filter((e) => e.type === 'TurnTerminal' && e.data.turn_id === turn).map((e) => e.data.terminal_kind),
      ).toEqual(['interrupted']);
      expect(replayDecisions(events.map((e) => toDomainEvent(e) as AnyEvent)).mismatches).toEqual([]);
    }
    await projected(deployment.app);
    assertCleanHistory(await deployment.check());
  });
});

function perMessage(events: StoredEvent[], type: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.type !== type) continue;
    const id = String(event.data.message_id);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
