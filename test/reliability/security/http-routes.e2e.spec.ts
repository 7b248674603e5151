import { projected } from '../../support/http';
import {
  classify,
  httpRouteTable,
  isPublicByDesign,
  key,
  nestRouteTable,
  pathFor,
  PUBLIC_BY_DESIGN,
  REQUIRED_PUBLIC,
  RouteRecorderModule,
  STREAMING_TOKEN_ROUTES,
  type HttpRoute,
} from './support/route-table';
import { missingIds, probe, secret, securityWorld, type Probe } from './support/world';

/**
 * Every HTTP route of the running app (read from Fastify's router, cross-checked with Nest's
 * controller metadata) against no token, malformed tokens, another agent's token and an
 * agent token on admin routes. Each check walks the whole table and lists every route that
 * answers wrongly, so a new route is covered the day it lands.
 */
describe('security of every HTTP route', () => {
  const world = securityWorld({ modules: [RouteRecorderModule] });
  let routes: HttpRoute[];
  let protectedRoutes: HttpRoute[];

  beforeAll(() => {
    routes = httpRouteTable(world.app);
    protectedRoutes = routes.filter((route) => !isPublicByDesign(route));
  });

  const envelopeOf = (reply: Probe) =>
    reply.json?.error as { code: string; message: string; details: Record<string, unknown> } | undefined;
  const describeReply = (route: HttpRoute, reply: Probe) =>
    `${key(route)} -> ${reply.status} ${reply.text.slice(0, 160)}`;

  describe('the route table', () => {
    it('is read from the router: every Nest route is there, and nothing else but the OpenAPI document', () => {
      const nest = nestRouteTable(world.app).map(key);
      const fastify = routes.map(key);
      expect(nest.length).toBeGreaterThan(30);
      expect(nest.filter((route) => !fastify.includes(route))).toEqual([]);
      expect(routes.filter((route) => !nest.includes(key(route))).every(isPublicByDesign)).toBe(true);
      expect(fastify).toEqual(
        expect.arrayContaining([
          'GET /health',
          'GET /docs-json',
          'POST /v1/callbacks/:callback_token',
          'POST /v1/agents',
        ]),
      );
    });

    it('has @Public() only on routes listed as public by design, and every required public route', () => {
      const publicNest = nestRouteTable(world.app)
        .filter((route) => route.public)
        .map(key);
      expect(publicNest.filter((route) => !(route in PUBLIC_BY_DESIGN))).toEqual([]);
      expect(REQUIRED_PUBLIC.filter((route) => !routes.some((r) => key(r) === route))).toEqual([]);
    });

    it('classifies every protected route: by the agent in its path, as admin, or listed with how it scopes its agents', () => {
      const unclassified = routes.filter((route) => classify(route) === null).map(key);
      expect(unclassified).toEqual([]);
    });

    it('puts @AdminOnly() exactly on the routes under /v1/admin', () => {
      const nest = nestRouteTable(world.app);
      expect(nest.filter((route) => route.adminOnly).map(key)).toEqual(
        nest.filter((route) => route.url.startsWith('/v1/admin')).map(key),
      );
    });
  });

  describe('without a token', () => {
    it('answers every protected route 401 unauthorized with WWW-Authenticate, writing nothing', async () => {
      const before = await world.revisionOf(world.mine);
      const wrong: string[] = [];
      for (const route of protectedRoutes) {
        const reply = await probe(world.app, route.method, pathFor(route, world.existing));
        const ok =
          reply.status === 401 &&
          envelopeOf(reply)?.code === 'unauthorized' &&
          reply.headers.get('www-authenticate') === 'Bearer';
        if (!ok) wrong.push(describeReply(route, reply));
      }
      expect(wrong).toEqual([]);
      expect(await world.revisionOf(world.mine)).toBe(before);
    });

    it('serves the routes that are public by design', async () => {
      expect((await probe(world.app, 'GET', '/health')).status).toBe(200);
      expect((await probe(world.app, 'GET', '/docs-json')).status).toBe(200);
      // A wrong capability is a 404, never a 401: the route asks for no API token.
      const callback = await probe(world.app, 'POST', '/v1/callbacks/cb1.x.y.z', undefined, '{"source":"x"}');
      expect(callback.status).toBe(404);
    });
  });

  describe('with a malformed or unknown token', () => {
    const utf8AsLatin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    const variants: [string, () => string][] = [
      ['an empty header', () => ''],
      ['the Basic scheme', () => `Basic ${Buffer.from(`${world.tokens.mine}:`).toString('base64')}`],
      ['the token without a scheme', () => world.tokens.mine],
      ['Bearer and nothing', () => 'Bearer '],
      ['two tokens', () => `Bearer ${world.tokens.mine} ${world.tokens.mine}`],
      ['non-ASCII UTF-8 bytes', () => `Bearer ${utf8AsLatin1('tök€n-😀')}`],
      ['a latin1 byte', () => 'Bearer t\u00f6k'],
      ['10 KB of token', () => `Bearer ${'x'.repeat(10 * 1024)}`],
      ['an unknown token', () => `Bearer ${secret('nope')}`],
      ['a token differing in case', () => `Bearer ${world.tokens.mine.toUpperCase()}`],
      ['a callback token', () => `Bearer ${world.callbackToken}`],
    ];

    it.each(variants)('answers every protected route 401 for %s, writing nothing', async (_name, header) => {
      const before = await world.revisionOf(world.mine);
      const wrong: string[] = [];
      for (const route of protectedRoutes) {
        const reply = await probe(world.app, route.method, pathFor(route, world.existing), header());
        if (reply.status !== 401 || envelopeOf(reply)?.code !== 'unauthorized') wrong.push(describeReply(route, reply));
      }
      expect(wrong).toEqual([]);
      expect(await world.revisionOf(world.mine)).toBe(before);
    });

    it('answers headers over 16 KiB with the envelope (431 headers_too_large), and keeps serving', async () => {
      const reply = await probe(world.app, 'GET', `/v1/agents/${world.mine}`, `Bearer ${'x'.repeat(100 * 1024)}`);
      expect(reply.status).toBe(431);
      expect(envelopeOf(reply)?.code).toBe('headers_too_large');
      expect((await probe(world.app, 'GET', '/health')).status).toBe(200);
    });
  });

  describe("with another agent's token", () => {
    const agentRoutes = () => protectedRoutes.filter((route) => classify(route) === 'agent');
    const tokenRoutes = () => protectedRoutes.filter((route) => classify(route) === 'token');
    /** The refusal with the agent id taken out: what must not differ between an existing and a missing resource. */
    const shape = (reply: Probe, agentId: string) => ({
      status: reply.status,
      body: reply.text.split(agentId).join('<agent>'),
    });

    it('answers every agent route 403 forbidden, the same for an existing and a missing resource, writing nothing', async () => {
      expect(agentRoutes().length).toBeGreaterThan(30);
      const before = { mine: await world.revisionOf(world.mine), ghost: await world.revisionOf(world.ghost) };
      const missing = missingIds(world);
      const wrong: string[] = [];
      for (const route of agentRoutes()) {
        const existing = await probe(
          world.app,
          route.method,
          pathFor(route, world.existing),
          `Bearer ${world.tokens.theirs}`,
        );
        const missingChildren = await probe(
          world.app,
          route.method,
          pathFor(route, { ...missing, agent_id: world.mine }),
          `Bearer ${world.tokens.theirs}`,
        );
        const missingAgent = await probe(
          world.app,
          route.method,
          pathFor(route, { ...missing, agent_id: world.ghost }),
          `Bearer ${world.tokens.theirs}`,
        );
        if (existing.status !== 403 || envelopeOf(existing)?.code !== 'forbidden')
          wrong.push(describeReply(route, existing));
        if (missingChildren.text !== existing.text || missingChildren.status !== existing.status)
          wrong.push(`${key(route)}: a missing resource answers differently: ${missingChildren.text}`);
        expect(shape(missingAgent, world.ghost)).toEqual(shape(existing, world.mine));
      }
      expect(wrong).toEqual([]);
      expect(await world.revisionOf(world.mine)).toBe(before.mine);
      expect(await world.revisionOf(world.ghost)).toBe(before.ghost);
    });

    it('refuses to register an agent the token does not name, the same for an existing and a new id, creating nothing', async () => {
      const theirs = world.as(world.tokens.theirs);
      const fresh = `${world.ghost}-new`;
      const existing = await theirs('POST', '/v1/agents', { agent_id: world.mine });
      const created = await theirs('POST', '/v1/agents', { agent_id: fresh });
      expect(existing.status).toBe(403);
      expect(created.text).toBe(existing.text);
      expect(await world.revisionOf(fresh)).toBeNull();
    });

    it('shows nothing of another agent on the listed routes that name no agent in their path', async () => {
      await projected(world.app);
      const wrong: string[] = [];
      for (const route of tokenRoutes().filter((r) => r.method === 'GET' && !STREAMING_TOKEN_ROUTES.includes(key(r)))) {
        const theirs = await probe(world.app, 'GET', route.url, `Bearer ${world.tokens.theirs}`);
        if (theirs.status !== 200 || theirs.text.includes(world.mine)) wrong.push(describeReply(route, theirs));
      }
      expect(wrong).toEqual([]);
      if (routes.some((route) => key(route) === 'GET /v1/agents')) {
        // The check can fail: the same list for the admin token does name the agent.
        expect((await probe(world.app, 'GET', '/v1/agents?limit=1000', `Bearer ${world.tokens.admin}`)).text).toContain(
          world.mine,
        );
      }
    });
  });

  describe('admin routes', () => {
    const adminRoutes = () => protectedRoutes.filter((route) => classify(route) === 'admin');

    it('exist, and refuse agent tokens (403 forbidden) whatever agent they hold', async () => {
      expect(adminRoutes().length).toBeGreaterThan(0);
      const wrong: string[] = [];
      for (const route of adminRoutes()) {
        for (const token of [world.tokens.mine, world.tokens.theirs]) {
          const reply = await probe(world.app, route.method, pathFor(route, world.existing), `Bearer ${token}`);
          if (reply.status !== 403 || envelopeOf(reply)?.code !== 'forbidden') wrong.push(describeReply(route, reply));
        }
      }
      expect(wrong).toEqual([]);
    });

    it('serve the admin token', async () => {
      expect((await world.as(world.tokens.admin)('GET', '/v1/admin/projections')).status).toBe(200);
    });
  });

  it('lets the right token through on its own agent (the refusals above are not a broken app)', async () => {
    const mine = world.as(world.tokens.mine);
    expect((await mine('GET', `/v1/agents/${world.mine}/work-items/w-sec`)).status).toBe(200);
    expect((await world.as(world.tokens.admin)('GET', `/v1/agents/${world.mine}/work-items/w-sec`)).status).toBe(200);
  });
});
