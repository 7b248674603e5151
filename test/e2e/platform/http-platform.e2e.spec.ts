import { request as httpRequest } from 'node:http';
import { startTestApp, type TestApp } from '../../support/app';
import { ProbeModule } from './support/probe.module';

const MiB = 1024 * 1024;

describe('the platform over real HTTP (Fastify, embedded Postgres)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ modules: [ProbeModule] });
  });
  afterAll(async () => {
    await app?.close();
  });

  const call = async (method: string, path: string, options: { token?: string; body?: string; type?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = options.type ?? 'application/json';
    const response = await fetch(`${app.baseUrl}${path}`, { method, headers, body: options.body });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: text ? (JSON.parse(text) as Record<string, any>) : undefined,
    };
  };

  describe('public endpoints', () => {
    it('GET /health answers 200 with both checks up, without a token', async () => {
      const res = await call('GET', '/health');
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ status: 'ok', checks: { event_store: 'up', postgres: 'up' } });
      // The projector of this app has run: its checkpoint against the store's head, and no stall.
      expect(res.json!.projection_lag).toMatchObject({ projection: 'read_models', stalled_at: null });
      expect(res.json!.projection_lag.checkpoint).toMatch(/^-?\d+$/);
      expect(res.headers.get('x-request-id')).toMatch(/\S+/);
    });

    // NOTE: the /docs UI needs @fastify/static, which jest's sandbox cannot load (an ESM
    // dependency); it is checked against the built server (docs/decisions/0003-platform.md).
    it('serves the OpenAPI document at /docs-json without a token', async () => {
      const json = await call('GET', '/docs-json');
      expect(json.status).toBe(200);
      expect(json.json).toMatchObject({
        openapi: expect.stringMatching(/^3\./),
        paths: expect.objectContaining({ '/health': expect.any(Object) }),
      });
    });

    it('echoes a sane x-request-id', async () => {
      const res = await fetch(`${app.baseUrl}/health`, { headers: { 'x-request-id': 'trace-42' } });
      expect(res.headers.get('x-request-id')).toBe('trace-42');
    });

    it('lets a @Public() route through without a token', async () => {
      expect((await call('POST', '/probe-callbacks/cap-1')).json).toEqual({ accepted: true, caller: null });
    });
  });

  describe('auth on /v1', () => {
    it('answers 401 unauthorized without a token', async () => {
      const res = await call('GET', '/v1/agents/agent-a/ping');
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: { code: 'unauthorized', message: 'missing bearer token', details: {} } });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it.each(['Bearer nope', 'Basic dG9rLWE6', 'tok-a'])('answers 401 for the header %j', async (header) => {
      const res = await fetch(`${app.baseUrl}/v1/agents/agent-a/ping`, { headers: { authorization: header } });
      expect(res.status).toBe(401);
    });

    it("answers 403 forbidden with another agent's token, before the handler runs", async () => {
      const res = await call('POST', '/v1/agents/agent-a/fail/invariant', { token: 'tok-c' });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({
        error: { code: 'forbidden', message: expect.stringContaining('agent-a'), details: { agent_id: 'agent-a' } },
      });
    });

    it('lets a token act on its own agents, and exposes the caller', async () => {
      const res = await call('GET', '/v1/agents/agent-b/ping', { token: 'tok-a' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ agent_id: 'agent-b', caller: 'token-1', revision: '9007199254740993' });
    });

    it('lets the admin token act on every agent', async () => {
      expect((await call('GET', '/v1/agents/anyone/ping', { token: 'tok-admin' })).status).toBe(200);
    });

    it('keeps @AdminOnly() routes for the admin token', async () => {
      expect((await call('GET', '/v1/admin-probe', { token: 'tok-a' })).status).toBe(403);
      expect((await call('GET', '/v1/admin-probe', { token: 'tok-admin' })).json).toEqual({ caller: 'token-3' });
    });
  });

  describe('request limits', () => {
    it('answers 413 payload_too_large for a body over 1 MiB', async () => {
      const body = JSON.stringify({ name: 'x'.repeat(MiB) });
      const res = await call('POST', '/v1/agents/agent-a/echo', { token: 'tok-a', body });
      expect(res.status).toBe(413);
      expect(res.json?.error.code).toBe('payload_too_large');
    });

    it('answers 413 for a chunked body without content-length once it passes 1 MiB', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${app.baseUrl}/v1/agents/agent-a/echo`,
          { method: 'POST', headers: { authorization: 'Bearer tok-a', 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        const chunk = 'x'.repeat(64 * 1024);
        req.write('{"name":"');
        for (let i = 0; i < 20; i++) req.write(chunk);
        req.end('"}');
      });
      expect(status).toBe(413);
    });

    it('accepts a body just under 1 MiB', async () => {
      const body = JSON.stringify({ name: 'x'.repeat(MiB - 100) });
      expect((await call('POST', '/v1/agents/agent-a/echo', { token: 'tok-a', body })).status).toBe(200);
    });

    it('answers 400 validation_failed for JSON nested deeper than 32 levels', async () => {
      const deep = '{"a":'.repeat(33) + '1' + '}'.repeat(33);
      const res = await call('POST', '/v1/agents/agent-a/echo', { token: 'tok-a', body: deep });
      expect(res.status).toBe(400);
      expect(res.json?.error).toMatchObject({
        code: 'validation_failed',
        details: { reason: 'too_deep', max_depth: 32 },
      });
    });

    it.each(['__proto__', 'constructor', 'prototype'])('answers 400 validation_failed for a %s key', async (key) => {
      const res = await call('POST', '/v1/agents/agent-a/echo', {
        token: 'tok-a',
        body: `{"name":"x","items":[{"${key}":{"admin":true}}]}`,
      });
      expect(res.status).toBe(400);
      expect(res.json?.error).toMatchObject({ code: 'validation_failed', details: { reason: 'forbidden_key', key } });
    });

    it('answers 400 for malformed JSON', async () => {
      const res = await call('POST', '/v1/agents/agent-a/echo', { token: 'tok-a', body: '{"name":' });
      expect(res.status).toBe(400);
      expect(res.json?.error.code).toBe('validation_failed');
    });

    it('answers 415 for a content type nobody parses', async () => {
      const res = await call('POST', '/v1/agents/agent-a/echo', {
        token: 'tok-a',
        body: 'x',
        type: 'application/octet-stream',
      });
      expect(res.status).toBe(415);
      expect(res.json?.error.code).toBe('unsupported_media_type');
    });

    it('accepts text/markdown and text/plain bodies as strings', async () => {
      for (const type of ['text/markdown', 'text/plain; charset=utf-8']) {
        const res = await call('PUT', '/v1/agents/agent-a/plan', { token: 'tok-a', body: '# Plan\n- [ ] step', type });
        expect(res.json).toEqual({ kind: 'string', length: 17 });
      }
    });
  });

  describe('validation', () => {
    it('turns a valid body into the DTO', async () => {
      const res = await call('POST', '/v1/agents/agent-a/echo', {
        token: 'tok-a',
        body: '{"name":"n","items":[{"text":"t"}]}',
      });
      expect(res.json).toEqual({ echoed: { name: 'n', items: [{ text: 't' }] }, is_dto: true });
    });

    it('answers 400 listing each offending field and constraint, unknown fields included', async () => {
      const res = await call('POST', '/v1/agents/agent-a/echo', {
        token: 'tok-a',
        body: '{"name":5,"surprise":1,"items":[{"text":1}]}',
      });
      expect(res.status).toBe(400);
      expect(res.json?.error.code).toBe('validation_failed');
      expect(res.json?.error.details.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'name', constraint: 'isString' }),
          expect.objectContaining({ field: 'surprise', constraint: 'whitelistValidation' }),
          expect.objectContaining({ field: 'items.0.text', constraint: 'isString' }),
        ]),
      );
    });
  });

  describe('the error envelope', () => {
    it('answers 404 not_found for an unknown route', async () => {
      const res = await call('GET', '/nope');
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: { code: 'not_found', message: expect.any(String), details: {} } });
    });

    it.each([
      ['invariant', 422, 'invariant_violated', { work_item_id: 'w-1' }],
      ['not-found', 404, 'not_found', {}],
      ['revision', 409, 'conflict', { current_revision: '7' }],
      ['store', 503, 'unavailable', {}],
      ['other', 500, 'internal', {}],
    ])('renders a %s failure as %i %s', async (kind, status, code, details) => {
      const res = await call('POST', `/v1/agents/agent-a/fail/${kind}`, { token: 'tok-a' });
      expect(res.status).toBe(status);
      expect(res.json).toEqual({ error: { code, message: expect.any(String), details } });
      expect(res.text).not.toMatch(/10\.1\.2\.3|password|secret\.ts/);
    });

    it('renders contention (retries ran out) as 503 contention with Retry-After, never a 409', async () => {
      const res = await call('POST', '/v1/agents/agent-a/fail/contention', { token: 'tok-a' });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.json).toEqual({
        error: {
          code: 'contention',
          message: expect.any(String),
          details: { agent_id: 'agent-a', attempts: 11, retry_after_seconds: 1 },
        },
      });
    });
  });
});
