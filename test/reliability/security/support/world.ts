import { randomBytes } from 'node:crypto';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp, type TestAppOptions } from '../../../support/app';
import { agentsProjected } from '../../../support/grpc';
import { freshId } from '../../../support/postgres';

export interface Probe {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined. */
  json: any;
}

/**
 * One HTTP request with an exact Authorization header (absent when `authorization` is
 * undefined; fetch sends a latin1 string byte for byte, so UTF-8 bytes can be smuggled in).
 */
export async function probe(
  app: TestApp,
  method: string,
  path: string,
  authorization?: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Probe> {
  const all: Record<string, string> = { ...headers };
  if (authorization !== undefined) all.authorization = authorization;
  const withBody = body !== undefined || !['GET', 'HEAD', 'DELETE'].includes(method);
  if (withBody) all['content-type'] ??= 'application/json';
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: all,
    body: withBody ? (body ?? '{}') : undefined,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A secret nobody could guess or find in another log line. */
export const secret = (label: string): string => `${label}-${randomBytes(18).toString('base64url')}`;

export interface SecurityWorld {
  app: TestApp;
  /** Agent of `tokens.mine`, with one of each resource. */
  mine: string;
  /** Agent of `tokens.theirs` (the "other agent"). */
  theirs: string;
  /** Never registered. */
  ghost: string;
  tokens: { mine: string; theirs: string; admin: string };
  /** Ids of existing resources of `mine`, by path parameter name. */
  existing: Record<string, string>;
  /** The callback token of `existing.intent_id` (an external wait). */
  callbackToken: string;
  /** Stream revision of an agent (null: no stream): "nothing written" means it did not move. */
  revisionOf(agentId: string): Promise<bigint | null>;
  /** As an HTTP client with a bearer token. */
  as(token: string | undefined): (method: string, path: string, body?: unknown) => Promise<Probe>;
}

/**
 * One app with three tokens (mine, theirs, admin; secrets random per run) and an agent with a
 * work item, an external wait (and its callback token), a task, a timer and a queued message.
 */
export function securityWorld(
  options: Omit<TestAppOptions, 'tokens'> & { rateLimit?: string; extraTokens?: () => string } = {},
): SecurityWorld {
  const world = {
    mine: freshId('sec-mine'),
    theirs: freshId('sec-theirs'),
    ghost: freshId('sec-ghost'),
  } as SecurityWorld;
  world.tokens = { mine: secret('tok-mine'), theirs: secret('tok-theirs'), admin: secret('tok-admin') };
  beforeAll(async () => {
    const { rateLimit = 'off', extraTokens, ...appOptions } = options;
    world.app = await startTestApp({
      ...appOptions,
      env: { ...appOptions.env, RUNTIME_RATE_LIMIT: rateLimit },
      tokens: `${world.tokens.mine}=${world.mine};${world.tokens.theirs}=${world.theirs};${world.tokens.admin}=*${extraTokens ? `;${extraTokens()}` : ''}`,
    });
    const store = world.app.runtime.app.get<EventStore>(EVENT_STORE);
    world.revisionOf = (agentId) => store.streamRevision(agentStream(agentId));
    world.as = (token) => (method, path, body) =>
      probe(
        world.app,
        method,
        path,
        token === undefined ? undefined : `Bearer ${token}`,
        body === undefined ? undefined : JSON.stringify(body),
      );
    const mine = world.as(world.tokens.mine);
    const base = `/v1/agents/${world.mine}`;
    const created = async (reply: Promise<Probe>) => {
      const done = await reply;
      if (done.status >= 300) throw new Error(`fixture refused: ${done.status} ${done.text}`);
      return done.json;
    };
    await created(mine('POST', '/v1/agents', { agent_id: world.mine }));
    await created(world.as(world.tokens.admin)('POST', '/v1/agents', { agent_id: world.theirs }));
    await created(mine('POST', `${base}/work-items`, { work_item_id: 'w-sec', objective: 'a guarded item' }));
    const wait = await created(
      mine('POST', `${base}/work-items/w-sec/wait`, {
        wake: 'external',
        reason: 'the deploy',
        resource: 'deploy:prod',
      }),
    );
    const task = await created(
      mine('POST', `${base}/tasks`, { task_id: 'task-sec', kind: 'build', wait_policy: 'background' }),
    );
    const timer = await created(mine('POST', `${base}/timers`, { duration_ms: 3_600_000 }));
    const message = await created(mine('POST', `${base}/messages`, { kind: 'operator_prompt', body: 'hello' }));
    world.callbackToken = wait.callback_token;
    world.existing = {
      agent_id: world.mine,
      work_item_id: 'w-sec',
      intent_id: wait.waiting_intent.id,
      task_id: task.task?.id ?? 'task-sec',
      timer_id: timer.timer.id,
      message_id: message.message.id,
      callback_token: world.callbackToken,
    };
    // Reads (GetAgent, GET /v1/agents/{id}) answer from the read models: on a busy machine the projector may not
    // have applied the setup's events yet, and a reply that must be served would then be NOT_FOUND.
    await agentsProjected(world.app, world.mine, world.theirs);
  });
  afterAll(() => world.app?.close());
  return world;
}

/** The same ids, none of which exists (well-formed, so the answer cannot be a 400). */
export function missingIds(world: SecurityWorld): Record<string, string> {
  return Object.fromEntries(Object.keys(world.existing).map((name) => [name, `missing-${name.replace(/_/g, '-')}`]));
}
