import type { Pool } from 'pg';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { POSTGRES_POOL } from '@app/read-models';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { freshId } from '../../support/postgres';
import { startLoggedApp, type LoggedApp } from './support/logged-app';
import { probe, secret, type Probe } from './support/world';

/**
 * Callback tokens are capabilities for one intent: not API tokens, not for another intent, not
 * after the intent is gone, and never written anywhere but the reply of WaitFor (the log of a
 * whole session at `trace` and every table of the database are searched for them).
 */
describe('callback tokens', () => {
  const agent = freshId('sec-cb');
  const tokens = { mine: secret('tok-cb-mine'), admin: secret('tok-cb-admin') };
  let app: LoggedApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let pool: Pool;
  const minted: string[] = [];
  const intents: Record<'a' | 'b' | 'viaGrpc', { id: string; token: string }> = {} as never;

  const api = (method: string, path: string, body?: unknown, token: string | undefined = tokens.mine): Promise<Probe> =>
    probe(
      app,
      method,
      path,
      token === undefined ? undefined : `Bearer ${token}`,
      body === undefined ? undefined : JSON.stringify(body),
    );
  const callback = (token: string, body: unknown = { source: 'deployer' }, suffix = ''): Promise<Probe> =>
    probe(app, 'POST', `/v1/callbacks/${token}${suffix}`, undefined, JSON.stringify(body));
  const triggerCount = async (intentId: string): Promise<number> => {
    const events = await app.runtime.app.get<EventStore>(EVENT_STORE).readStream(agentStream(agent));
    return events.filter(
      (event) =>
        event.type === 'WaitingIntentTriggered' && (event.data as { intent_id?: string }).intent_id === intentId,
    ).length;
  };
  /** The token with another intent's id in it: the claimed intent changes, the secret does not. */
  const retarget = (token: string, intentId: string): string => {
    const [prefix, agentPart, , secretPart] = token.split('.');
    return [prefix, agentPart, Buffer.from(intentId).toString('base64url'), secretPart].join('.');
  };

  beforeAll(async () => {
    app = await startLoggedApp(`${tokens.mine}=${agent};${tokens.admin}=*`, { RUNTIME_RATE_LIMIT: 'off' });
    grpc = runtimeGrpcClient(app);
    pool = app.runtime.app.get<Pool>(POSTGRES_POOL);
    expect((await api('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    for (const [name, item] of [
      ['a', 'w-cb-a'],
      ['b', 'w-cb-b'],
    ] as const) {
      expect(
        (await api('POST', `/v1/agents/${agent}/work-items`, { work_item_id: item, objective: `waits for ${name}` }))
          .status,
      ).toBe(201);
      const wait = await api('POST', `/v1/agents/${agent}/work-items/${item}/wait`, {
        wake: 'external',
        reason: `event ${name}`,
        resource: `deploy:${name}`,
      });
      expect(wait.status).toBe(201);
      intents[name] = { id: wait.json.waiting_intent.id, token: wait.json.callback_token };
    }
    const viaGrpc = await grpc.call(
      'WaitFor',
      { agent_id: agent, wake: 'external', reason: 'an agent-scope wait', resource: 'deploy:grpc' },
      tokens.mine,
    );
    expect(viaGrpc.error).toBeNull();
    intents.viaGrpc = { id: viaGrpc.reply.waiting_intent.id, token: viaGrpc.reply.callback_token };
    minted.push(intents.a.token, intents.b.token, intents.viaGrpc.token);
    for (const token of minted) expect(token).toMatch(/^cb1\./);
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  describe('are single-purpose', () => {
    it('are not API bearer tokens, over HTTP or gRPC', async () => {
      for (const token of minted) {
        expect((await api('GET', `/v1/agents/${agent}`, undefined, token)).status).toBe(401);
        expect(
          (await api('POST', `/v1/agents/${agent}/messages`, { kind: 'operator_prompt', body: 'x' }, token)).status,
        ).toBe(401);
        expect(refusalOf(await grpc.call('GetAgent', { agent_id: agent }, token)).code).toBe(
          GrpcStatus.UNAUTHENTICATED,
        );
      }
    });

    it('cannot be replaced by an API token on the callback route (the same 404 as any wrong token)', async () => {
      const unknown = await callback('cb1.x.y.z');
      for (const token of [tokens.mine, tokens.admin]) {
        const reply = await callback(token);
        expect(reply.status).toBe(404);
        expect(reply.json).toEqual(unknown.json);
      }
      // A bearer token next to a wrong capability changes nothing either.
      const withBearer = await probe(
        app,
        'POST',
        '/v1/callbacks/cb1.x.y.z',
        `Bearer ${tokens.admin}`,
        '{"source":"x"}',
      );
      expect(withBearer.json).toEqual(unknown.json);
    });

    it('trigger their own intent only: a token re-addressed to another intent is the same 404 and counts nothing', async () => {
      const before = { a: await triggerCount(intents.a.id), b: await triggerCount(intents.b.id) };
      const forged = [
        retarget(intents.a.token, intents.b.id),
        retarget(intents.b.token, intents.a.id),
        retarget(intents.a.token, intents.viaGrpc.id),
      ];
      const unknown = await callback('cb1.x.y.z');
      for (const token of forged) {
        const reply = await callback(token);
        expect(reply.status).toBe(404);
        expect(reply.json).toEqual(unknown.json);
        expect(refusalOf(await grpc.call('Callback', { callback_token: token, source: 'x' })).code).toBe(
          GrpcStatus.NOT_FOUND,
        );
      }
      expect(await triggerCount(intents.a.id)).toBe(before.a);
      expect(await triggerCount(intents.b.id)).toBe(before.b);
      const own = await callback(intents.a.token, { source: 'deployer', event_id: 'delivery-1' });
      expect(own.status).toBe(200);
      expect(own.json.waiting_intent_id).toBe(intents.a.id);
      expect(await triggerCount(intents.a.id)).toBe(before.a + 1);
      expect(await triggerCount(intents.b.id)).toBe(before.b);
    });

    it('work over gRPC for their intent, and stop working once it is cancelled', async () => {
      const viaGrpc = await grpc.call('Callback', {
        callback_token: intents.viaGrpc.token,
        source: 'x',
        event_id: 'g-1',
      });
      expect(viaGrpc.error).toBeNull();
      expect(viaGrpc.reply.waiting_intent_id).toBe(intents.viaGrpc.id);
      expect((await api('DELETE', `/v1/agents/${agent}/waiting-intents/${intents.b.id}`)).status).toBe(200);
      const before = await triggerCount(intents.b.id);
      expect((await callback(intents.b.token)).status).toBe(404);
      expect(await triggerCount(intents.b.id)).toBe(before);
    });

    it('are shown once: no read of the waiting plane returns them', async () => {
      const listed = await api('GET', `/v1/agents/${agent}/waiting-intents?status=all&limit=100`);
      const item = await api('GET', `/v1/agents/${agent}/work-items/w-cb-a`);
      const grpcList = await grpc.call('ListWaitingIntents', { agent_id: agent, status: 'all' }, tokens.mine);
      for (const text of [listed.text, item.text, JSON.stringify(grpcList.reply)]) {
        for (const token of minted) expect(text).not.toContain(token.split('.')[3]);
      }
    });
  });

  describe('are never written down', () => {
    beforeAll(async () => {
      // Every way a token can reach the edges, including the broken ones.
      const a = intents.a.token;
      await callback(a, { source: 'x' }, '?retry=1');
      await callback(a, { source: 'x' }, '/extra');
      await callback(`${a}%ZZ`);
      await callback(`${a}${'x'.repeat(700)}`);
      await probe(app, 'POST', `/v1/callbacks/${a}`, undefined, '{"source":');
      await probe(app, 'POST', `/v1/callbacks/${a}`, undefined, JSON.stringify({ source: 'x', surprise: a }));
      await probe(app, 'GET', `/v1/callbacks/${a}`);
      await callback(a.toUpperCase());
      await grpc.call('Callback', { callback_token: a, source: 'x', event_id: 'log-1' });
      await grpc.call('Callback', { callback_token: `${a}x`, source: 'x' });
      await grpc.call('GetAgent', { agent_id: agent }, a);
      await api('GET', `/v1/agents/${agent}`, undefined, a);
    });

    /** The part that grants access: enough to find a token however it was cut or encoded. */
    const secrets = () => [...minted.map((token) => token.split('.')[3]!), tokens.mine, tokens.admin];

    it('in no log line, at trace level, while the requests were logged', () => {
      expect(app.lines.length).toBeGreaterThan(20);
      expect(app.lines.some((line) => line.includes('/v1/callbacks/[redacted]'))).toBe(true);
      expect(app.lines.some((line) => line.includes('/agent_runtime.v1.AgentRuntime/Callback'))).toBe(true);
      const leaks = app.lines.filter((line) =>
        secrets().some((part) => line.includes(part) || line.toUpperCase().includes(part.toUpperCase())),
      );
      expect(leaks).toEqual([]);
    });

    it('in no stored event nor any table of the database', async () => {
      const events = await app.runtime.app.get<EventStore>(EVENT_STORE).readStream(agentStream(agent));
      const text = JSON.stringify(events, (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      );
      expect(text).toContain('callback_token_hash');
      for (const part of secrets()) expect(text).not.toContain(part);
      const tables = await pool.query<{ schema: string; name: string }>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
      );
      expect(tables.rows.length).toBeGreaterThan(3);
      const found: string[] = [];
      for (const table of tables.rows) {
        const relation = `"${table.schema.replace(/"/g, '""')}"."${table.name.replace(/"/g, '""')}"`;
        for (const part of secrets()) {
          const hits = await pool
            .query(`SELECT 1 FROM ${relation} t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [part])
            .catch((error: { code?: string }) => {
              // The database is shared with the suites running alongside: a table (or schema) another
              // suite dropped after the listing holds nothing any more.
              if (error.code === '42P01' || error.code === '3F000') return { rowCount: 0 };
              throw error;
            });
          if ((hits.rowCount ?? 0) > 0) found.push(`${relation} holds a secret`);
        }
      }
      expect(found).toEqual([]);
    });
  });
});
