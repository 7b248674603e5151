import { Writable } from 'node:stream';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { AGENT_ROLES, rolesOf, type AgentRole } from '@app/application';
import { startTestApp } from '../../support/app';
import { freshId } from '../../support/postgres';
import { refusalOf, runtimeGrpcClient, type GrpcReply } from '../../support/grpc';
import {
  grpcRoleTable,
  grpcRpcTable,
  key,
  nestRouteTable,
  pathFor,
  PUBLIC_RPCS,
  RouteRecorderModule,
  type GrpcRpc,
  type NestRoute,
} from './support/route-table';
import { missingIds, probe, secret, securityWorld, type Probe } from './support/world';

/**
 * Issue 14 item 10: every HTTP route and RPC declares the roles it accepts, and a named grant of
 * another role is refused there (403 forbidden / PERMISSION_DENIED) before anything is written;
 * the two live tokens of one grant record the same actor; the old form keeps every role.
 */
describe('token roles on every route and RPC', () => {
  const roleTokens: Record<AgentRole | 'host2', string> = {
    host: secret('tok-host'),
    host2: secret('tok-host-2'),
    operator: secret('tok-operator'),
    integration: secret('tok-integration'),
  };
  const world = securityWorld({
    modules: [RouteRecorderModule],
    extraTokens: () =>
      [
        `agent-host:host=${roleTokens.host}@${world.mine}`,
        `agent-host:host=${roleTokens.host2}@${world.mine}`,
        `ops:operator=${roleTokens.operator}@${world.mine}`,
        `hooks:integration=${roleTokens.integration}@${world.mine}`,
      ].join(';'),
  });
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let routes: NestRoute[];
  const rpcs = grpcRpcTable().filter((rpc) => !PUBLIC_RPCS.includes(rpc.name));
  let rpcRoles: Map<string, readonly string[] | undefined>;

  beforeAll(() => {
    grpc = runtimeGrpcClient(world.app);
    routes = nestRouteTable(world.app).filter((route) => !route.public && !route.adminOnly);
    rpcRoles = grpcRoleTable(world.app);
  });
  afterAll(() => grpc?.close());

  const envelopeOf = (reply: Probe) =>
    reply.json?.error as { code: string; details: Record<string, unknown> } | undefined;
  const requestFor = (rpc: GrpcRpc, ids: Record<string, string>) =>
    Object.fromEntries(rpc.requestFields.filter((f) => ids[f] !== undefined).map((f) => [f, ids[f]!]));
  const call = (rpc: GrpcRpc, ids: Record<string, string>, token: string): Promise<GrpcReply> =>
    grpc.call(rpc.name, requestFor(rpc, ids), token);
  const missing = () => ({ ...missingIds(world), agent_id: world.mine });

  it('has roles declared on every protected HTTP route that is not admin-only, and on every guarded RPC (as OPERATION_ROLES says)', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((route) => route.roles === undefined || route.roles.length === 0).map(key)).toEqual([]);
    expect(rpcs.filter((rpc) => rpcRoles.get(rpc.name) === undefined).map((rpc) => rpc.name)).toEqual([]);
    expect(
      rpcs.filter((rpc) => String(rpcRoles.get(rpc.name)) !== String(rolesOf(rpc.name))).map((rpc) => rpc.name),
    ).toEqual([]);
  });

  it('refuses each role on every HTTP route that does not declare it: 403 forbidden naming the role, writing nothing', async () => {
    const before = await world.revisionOf(world.mine);
    const wrong: string[] = [];
    const refused = new Set<AgentRole>();
    for (const route of routes) {
      for (const role of AGENT_ROLES.filter((r) => !route.roles!.includes(r))) {
        const reply = await probe(
          world.app,
          route.method,
          pathFor(route, world.existing),
          `Bearer ${roleTokens[role]}`,
        );
        const envelope = envelopeOf(reply);
        if (reply.status !== 403 || envelope?.code !== 'forbidden' || envelope.details.role !== role)
          wrong.push(`${role} on ${key(route)} -> ${reply.status} ${reply.text.slice(0, 160)}`);
        refused.add(role);
      }
    }
    expect(wrong).toEqual([]);
    expect([...refused].sort()).toEqual([...AGENT_ROLES].sort());
    expect(await world.revisionOf(world.mine)).toBe(before);
  });

  it('refuses each role on every RPC that does not declare it: PERMISSION_DENIED forbidden, writing nothing', async () => {
    const before = await world.revisionOf(world.mine);
    const wrong: string[] = [];
    for (const rpc of rpcs) {
      for (const role of AGENT_ROLES.filter((r) => !rpcRoles.get(rpc.name)!.includes(r))) {
        const reply = await call(rpc, world.existing, roleTokens[role]);
        const refusal = reply.error ? refusalOf(reply) : null;
        if (
          refusal?.code !== GrpcStatus.PERMISSION_DENIED ||
          refusal.errorCode !== 'forbidden' ||
          refusal.details.role !== role
        )
          wrong.push(`${role} on ${rpc.name} -> ${reply.error ? `${reply.error.code} ${reply.error.details}` : 'OK'}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await world.revisionOf(world.mine)).toBe(before);
  });

  it('lets every declared role, and an old-form token, past the role check (never 403) on both transports', async () => {
    const wrong: string[] = [];
    // A stream never ends: its roles are every role (checked above), nothing to probe here.
    for (const route of routes.filter((r) => !/\/stream$|^\/v1\/changes$/.test(r.url))) {
      for (const [who, token] of [
        ...route.roles!.map((r) => [r, roleTokens[r as AgentRole]]),
        ['old form', world.tokens.mine],
      ]) {
        const reply = await probe(world.app, route.method, pathFor(route, missing()), `Bearer ${token}`);
        if (reply.status === 403) wrong.push(`${who} on ${key(route)} -> ${reply.text.slice(0, 160)}`);
      }
    }
    for (const rpc of rpcs) {
      for (const [who, token] of [
        ...rpcRoles.get(rpc.name)!.map((r) => [r, roleTokens[r as AgentRole]]),
        ['old form', world.tokens.mine],
      ]) {
        const reply = await call(rpc, missing(), token!);
        if (reply.error?.code === GrpcStatus.PERMISSION_DENIED)
          wrong.push(`${who} on ${rpc.name} -> ${reply.error.details}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('records the same actor, the grant name and role, for both live tokens of a grant (rotation), over HTTP and gRPC', async () => {
    const base = `/v1/agents/${world.mine}`;
    for (const [id, token] of [
      ['w-rot-1', roleTokens.host],
      ['w-rot-2', roleTokens.host2],
    ] as const) {
      const created = await world.as(token)('POST', `${base}/work-items`, { work_item_id: id, objective: 'rotate' });
      expect(created.status).toBeLessThan(300);
    }
    const viaGrpc = await grpc.call(
      'CreateWorkItem',
      { agent_id: world.mine, work_item_id: 'w-rot-3', objective: 'rotate' },
      roleTokens.host2,
    );
    expect(viaGrpc.error).toBeNull();
    const events = await world.as(world.tokens.admin)('GET', `${base}/events?limit=1000`);
    const actors = (
      events.json.items as { type: string; data: { work_item_id?: string }; metadata: { actor?: string } }[]
    )
      .filter((event) => event.type === 'WorkItemCreated' && event.data.work_item_id?.startsWith('w-rot-'))
      .map((event) => event.metadata.actor);
    expect(actors).toEqual(['agent-host:host', 'agent-host:host', 'agent-host:host']);
    expect(events.text).not.toContain(roleTokens.host2);
  });
});

describe('the old token form at start-up', () => {
  it('still works, with a warning that it has every role, and one for a token under 16 characters, never logging a token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const long = secret('tok-old');
    const agent = freshId('old-form');
    const app = await startTestApp({
      tokens: `${long}=${agent};short-tok=*`,
      env: { LOG_LEVEL: 'info' },
      logDestination: sink,
    });
    try {
      expect(
        (await probe(app, 'POST', '/v1/agents', `Bearer ${long}`, JSON.stringify({ agent_id: agent }))).status,
      ).toBeLessThan(300);
      const warnings = lines
        .map((line) => JSON.parse(line) as { level: string; msg: string })
        .filter((line) => line.level === 'warn');
      expect(warnings.map((line) => line.msg)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^token-1 uses the old form token=agents: it has every role \(host, operator, integration\)/,
          ),
          expect.stringMatching(/^token-2 has a token shorter than 16 characters/),
        ]),
      );
      expect(lines.join('\n')).not.toContain(long);
      expect(lines.join('\n')).not.toContain('short-tok');
    } finally {
      await app.close();
    }
  });
});
