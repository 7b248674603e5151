import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type AgentState, decide, initialAgentState } from '@app/domain';
import type { StoredEvent } from '@app/event-store';
import { agentStream } from '@app/core';
import { type ProjectionRunner, createProjectionRunner } from '@app/read-models';
import { eventually } from '@app/event-store/testing';
import { uniqueIds } from './scenarios/scenario';
import { applyLogHook, readApplyLog } from './support/apply-log';
import { freshKey } from './support/client';
import { assertCleanHistory } from './support/history';
import { type Deployment, startDeployment } from './support/in-process';
import { registerAgents, runLoad } from './support/workload';

jest.setTimeout(120_000);

/**
 * Races, in one deployment (its own schema) whose read models two projector instances apply at
 * once (the app's runner and a second one on the same checkpoint), both writing the apply log.
 * Every case ends with the history checker.
 */
describe('races', () => {
  let deployment: Deployment;
  let second: ProjectionRunner<AgentState>;

  beforeAll(async () => {
    deployment = await startDeployment('races');
    second = createProjectionRunner(deployment.pool, deployment.store);
    second.setApplyHook(applyLogHook('second'));
    await second.start();
  });
  afterAll(async () => {
    await second?.stop();
    await deployment?.close();
  });

  it('many writers at one expected revision: exactly one wins each round, the others get 409 and write nothing', async () => {
    const { client } = deployment;
    const [agent] = uniqueIds('writers', 1);
    await registerAgents(client, [agent]);
    let revision = '0';
    for (let round = 0; round < 6; round++) {
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, writer) =>
          client.command(agent, 'POST', `/v1/agents/${agent}/work-items`, {
            work_item_id: `w-${round}-${writer}`,
            objective: 'race',
            expected_revision: revision,
          }),
        ),
      );
      const winners = replies.filter((r) => r.status === 201);
      const losers = replies.filter((r) => r.status === 409);
      expect({ round, winners: winners.length, losers: losers.length }).toEqual({ round, winners: 1, losers: 11 });
      const next = winners[0].body.revision as string;
      expect(BigInt(next)).toBe(BigInt(revision) + 1n);
      for (const loser of losers) {
        expect(loser.body.error).toMatchObject({ code: 'conflict', details: { current_revision: expect.any(String) } });
        expect(BigInt(loser.body.error.details.current_revision)).toBeGreaterThan(BigInt(revision));
      }
      revision = next;
    }
    const events = await deployment.store.readStream(agentStream(agent));
    expect(events.map((e) => e.type)).toEqual(['AgentRegistered', ...Array(6).fill('WorkItemCreated')]);
    assertCleanHistory(await deployment.check({ rebuild: false }));
  });

  it('the same Idempotency-Key on two connections at once: one event set, both callers get the same reply', async () => {
    const { client } = deployment;
    const agents = uniqueIds('twins', 3);
    await registerAgents(client, agents);
    const item = await client.command(agents[0], 'POST', `/v1/agents/${agents[0]}/work-items`, {
      work_item_id: 'w-shared',
      objective: 'shared',
    });
    expect(item.status).toBe(201);
    const bodies = (agent: string, n: number): Array<{ method: string; path: string; body: unknown }> => [
      {
        method: 'POST',
        path: `/v1/agents/${agent}/work-items`,
        body: { objective: `generated id ${n}`, plan: `# plan ${n}` },
      },
      { method: 'POST', path: `/v1/agents/${agent}/messages`, body: { kind: 'operator_prompt', body: `hello ${n}` } },
      {
        method: 'POST',
        path: `/v1/agents/${agent}/timers`,
        body: { fire_at: '2099-01-01T00:00:00.000Z', resume_text: `t ${n}` },
      },
      {
        method: 'POST',
        path: `/v1/agents/${agent}/tasks`,
        body: { kind: 'shell', wait_policy: 'background', summary: `task ${n}` },
      },
    ];
    const pairs = agents
      .flatMap((agent, a) => bodies(agent, a))
      .concat([
        {
          method: 'PATCH',
          path: `/v1/agents/${agents[0]}/work-items/w-shared`,
          body: { objective: 'shared, revised' },
        },
        { method: 'POST', path: `/v1/agents/${agents[0]}/work-items/w-shared/pick`, body: { reason: 'twice at once' } },
      ]);
    const results = await Promise.all(
      pairs.map(async (command) => {
        const key = freshKey('twin');
        const agent = command.path.split('/')[3];
        const [first, other] = await Promise.all(
          [0, 1].map(() =>
            client.command(agent, command.method, command.path, command.body, { key, freshConnection: true }),
          ),
        );
        return { command, key, first, other };
      }),
    );
    // The same reply, except `position` as docs/api.md defines it: the original names its last event,
    // the repeat the agent's last event when it was answered (later when another command of the
    // agent landed in between).
    const withoutPosition = (body: Record<string, unknown>) => ({ ...body, position: undefined });
    for (const { command, first, other } of results) {
      expect({ path: command.path, status: first.status }).toEqual({ path: command.path, status: expect.any(Number) });
      expect(first.status).toBeLessThan(300);
      expect({ status: other.status, body: withoutPosition(other.body) }).toEqual({
        status: first.status,
        body: withoutPosition(first.body),
      });
    }
    for (const agent of agents) {
      const events = await deployment.store.readStream(agentStream(agent));
      for (const { key, first, other } of results.filter((r) => r.first.record.agent === agent)) {
        const mine = events.filter((e) => e.metadata.command_id === key);
        expect(mine.length).toBeGreaterThan(0);
        expect(mine[mine.length - 1].revision.toString()).toBe(first.body.revision);
        const positions = [BigInt(first.body.position as string), BigInt(other.body.position as string)];
        const [original, repeat] = positions[0] <= positions[1] ? positions : [positions[1], positions[0]];
        expect(original).toBe(mine[mine.length - 1].position);
        expect(events.some((e) => e.position === repeat)).toBe(true);
      }
    }
    assertCleanHistory(await deployment.check({ rebuild: false }));
  });

  it('the out-of-order commit race under load: appends held open while later positions commit are neither skipped nor repeated', async () => {
    const { client, store } = deployment;
    const agents = uniqueIds('order', 4);
    await registerAgents(client, agents);
    const from = (await store.headPosition()) ?? -1n;
    // An independent catch-up subscriber besides the two projector instances.
    const subscription = store.subscribeToAll({ after_position: from, batch_size: 50 });
    const seen: StoredEvent[] = [];
    const consuming = (async () => {
      for await (const event of subscription) seen.push(event);
    })();
    let loading = true;
    let acked = 0;
    const ackedAt = new Map<string, number>();
    const workers = 6;
    const load = runLoad(client, agents, {
      workers,
      until: () => !loading,
      onReply: (record) => {
        ackedAt.set(record.key, Date.now());
        if (record.outcome === 'acked') acked += 1;
      },
    });
    const acknowledged = (what: string, count: number) =>
      eventually(
        what,
        () => acked,
        (n) => n >= count,
        { timeoutMs: 30_000 },
      );
    // Appends that take a position, then stay uncommitted while the load commits later positions:
    // each opens at its own point of the load and commits once the load has acknowledged more
    // commands than it has workers in flight (so some were sent, numbered and committed after it).
    const held = uniqueIds('held', 6);
    const holds = await Promise.all(
      held.map(async (agent, index) => {
        await acknowledged(`the load under way before hold ${index}`, 4 * (index + 1));
        return heldOpenRegistration(deployment.url, agent, async () => {
          const before = acked;
          await acknowledged(
            `commands acknowledged past ${agent}'s open append (from ${before})`,
            before + workers + 4 + (index % 3) * 4,
          );
        });
      }),
    ).finally(() => (loading = false));
    const result = await load;
    expect(result.acked).toBeGreaterThan(20);
    // The race did happen: commands with later positions were acknowledged while each hold was open.
    const loadEvents = (await Promise.all(agents.map((agent) => store.readStream(agentStream(agent))))).flat();
    for (const hold of holds) {
      const overtaken = loadEvents.filter(
        (e) =>
          e.position > hold.position && (ackedAt.get(String(e.metadata.command_id)) ?? Infinity) < hold.committedAt,
      );
      expect(overtaken.length).toBeGreaterThan(0);
    }
    const head = (await store.headPosition())!;
    await eventually(
      `the subscriber to reach the head ${head} (its last position)`,
      () => seen.at(-1)?.position ?? null,
      (last) => last !== null && last >= head,
      { timeoutMs: 10_000 },
    );
    await subscription.stop();
    await consuming;
    const all = (await store.readAll({ after_position: from })).filter((e) => e.position <= head);
    expect(seen.map((e) => e.position.toString())).toEqual(all.map((e) => e.position.toString()));
    for (const agent of held)
      expect((await store.readStream(agentStream(agent))).map((e) => e.type)).toEqual(['AgentRegistered']);
    assertCleanHistory(await deployment.check());
  });

  it('two projector instances on one projection: every position applied once, by one of them, both at the head', async () => {
    const { client, store } = deployment;
    const agents = uniqueIds('twoproj', 4);
    await registerAgents(client, agents);
    await runLoad(client, agents, { workers: 6, commands: 150 });
    const head = (await store.headPosition())!;
    await Promise.all([deployment.runner.waitFor(head), second.waitFor(head)]);
    const applied = await readApplyLog(deployment.pool, -1n);
    const by = (runner: string) => applied.filter((entry) => entry.runners.includes(runner)).length;
    expect(applied.filter((entry) => entry.times > 1)).toEqual([]);
    expect(by('app') + by('second')).toBe(applied.length);
    console.log(
      `two projector instances: ${applied.length} positions, ${by('app')} applied by the app's runner, ${by('second')} by the second`,
    );
    assertCleanHistory(await deployment.check());
  });
});

/** RegisterAgent's events appended in an explicit transaction, committed once `hold` resolves. */
async function heldOpenRegistration(
  url: string,
  agentId: string,
  hold: () => Promise<void>,
): Promise<{ position: bigint; committedAt: number }> {
  const now = new Date().toISOString();
  const commandId = freshKey('held');
  const events = decide(
    { type: 'RegisterAgent', data: { agent_id: agentId }, meta: { now, command_id: commandId, actor: 'reliability' } },
    initialAgentState(),
  );
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query(
      'SELECT last_position::text AS position FROM append_events($1, $2, $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])',
      [
        agentStream(agentId),
        'no_stream',
        events.map(() => randomUUID()),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        events.map(() =>
          JSON.stringify({
            command_id: commandId,
            correlation_id: commandId,
            causation_id: commandId,
            actor: 'reliability',
            schema_version: 1,
          }),
        ),
      ],
    );
    await hold();
    const committing = Date.now();
    await client.query('COMMIT');
    return { position: BigInt(rows[0].position), committedAt: committing };
  } finally {
    await client.end();
  }
}
