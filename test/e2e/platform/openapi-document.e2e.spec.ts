import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openApiJson } from '@app/platform';
import { startTestApp, type TestApp } from '../../support/app';

const ROOT = join(__dirname, '..', '..', '..');
const COMMITTED = join(ROOT, 'docs', 'openapi.json');
const PUBLIC = ['GET /health', 'GET /health/live', 'GET /health/ready', 'POST /v1/callbacks/{callback_token}'];

type Operation = { key: string; path: string; method: string; operation: any };

/** docs/openapi.json is what the service serves, complete by the rules of docs/api.md, and lint-clean. */
describe('the OpenAPI document', () => {
  let app: TestApp;
  let served: any;
  let operations: Operation[];
  beforeAll(async () => {
    app = await startTestApp();
    served = await (await fetch(`${app.baseUrl}/docs-json`)).json();
    operations = Object.entries(served.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        path,
        method,
        operation,
      })),
    );
  });
  afterAll(() => app?.close());

  it('is committed as docs/openapi.json exactly as /docs-json serves it (else run `npm run openapi:export`)', () => {
    const committed = readFileSync(COMMITTED, 'utf8').split('\n');
    const current = openApiJson(served).split('\n');
    const line = current.findIndex((text, i) => text !== committed[i]);
    if (line !== -1 || committed.length !== current.length)
      throw new Error(
        `docs/openapi.json differs from /docs-json (line ${line + 1}: ${JSON.stringify(committed[line])} ` +
          `vs ${JSON.stringify(current[line])}): run \`npm run openapi:export\` and commit the file`,
      );
  });

  it('gives every route a success reply and the error envelope on every 4xx and 5xx', () => {
    const envelope = '#/components/schemas/ErrorEnvelope';
    const resolve = (response: any) =>
      response.$ref ? served.components.responses[response.$ref.replace('#/components/responses/', '')] : response;
    for (const { key, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      const success = statuses.filter((status) => status.startsWith('2'));
      expect({ key, success: success.length }).toEqual({ key, success: 1 });
      const content = operation.responses[success[0]!].content;
      // GET /metrics answers the Prometheus text format (and only it does).
      const media =
        key === 'GET /metrics'
          ? 'text/plain'
          : expect.stringMatching(/^(application\/json|text\/markdown|text\/event-stream)$/);
      expect({ key, media: Object.keys(content ?? {}) }).toEqual({ key, media: [media] });
      for (const status of statuses.filter((s) => /^[45]/.test(s)))
        expect({
          key,
          status,
          schema: resolve(operation.responses[status]).content['application/json'].schema.$ref,
        }).toEqual({ key, status, schema: envelope });
      for (const status of ['500', ...(key.includes(' /v1/') ? ['400', '429', '503'] : [])])
        expect({ key, has: statuses.includes(status) }).toEqual({ key, has: true });
    }
    const refs = JSON.stringify(served).match(/"#\/components\/(schemas|responses)\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const [, kind, name] = JSON.parse(ref).split('/').slice(1);
      expect({ ref, found: served.components[kind][name] !== undefined }).toEqual({ ref, found: true });
    }
  });

  it('documents Idempotency-Key on every command, min_position on every read, position beside revision', () => {
    const header = (op: any, name: string) => op.parameters?.some((p: any) => p.in === 'header' && p.name === name);
    const commands = operations.filter(
      ({ path, method }) => method !== 'get' && /^\/v1\/(agents|callbacks)/.test(path),
    );
    expect(commands.length).toBeGreaterThanOrEqual(25);
    for (const { key, path, operation } of commands) {
      expect({ key, idempotency: header(operation, 'Idempotency-Key') }).toEqual({ key, idempotency: true });
      if (!path.startsWith('/v1/callbacks'))
        expect({ key, correlation: header(operation, 'X-Correlation-Id') }).toEqual({ key, correlation: true });
      const reply = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))![1] as any;
      const schema = served.components.schemas[reply.content['application/json'].schema.$ref.split('/').pop()];
      expect({
        key,
        revision: schema.properties.revision?.pattern,
        position: schema.properties.position?.pattern,
      }).toEqual({
        key,
        revision: expect.any(String),
        position: expect.any(String),
      });
    }
    for (const { key, operation } of operations.filter(
      ({ path, method }) => method === 'get' && path.startsWith('/v1/'),
    )) {
      const minPosition = operation.parameters.find((p: any) => p.name === 'min_position' && p.in === 'query');
      expect({ key, schema: minPosition?.schema }).toEqual({
        key,
        schema: { type: 'string', pattern: expect.any(String) },
      });
      expect({ key, lagging: JSON.stringify(served.components.responses.ReadUnavailable) }).toEqual({
        key,
        lagging: expect.stringContaining('read_model_lagging'),
      });
    }
  });

  it('types the fields callers get wrong: blocked_by, recheck_at, limit; opaque bearer tokens; servers', () => {
    const update = served.components.schemas.UpdateWorkItemDto.properties;
    expect(update.blocked_by).toMatchObject({ type: 'string', nullable: true });
    expect(update.recheck_at).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
    for (const { key, operation } of operations)
      for (const limit of (operation.parameters ?? []).filter((p: any) => p.name === 'limit'))
        expect({ key, type: limit.schema.type, min: limit.schema.minimum, max: limit.schema.maximum }).toEqual({
          key,
          type: 'integer',
          min: 1,
          max: expect.any(Number),
        });
    expect(served.components.securitySchemes.bearer).toEqual({
      type: 'http',
      scheme: 'bearer',
      description: expect.any(String),
    });
    expect(
      operations
        .filter(({ operation }) => operation.security.length === 0)
        .map(({ key }) => key)
        .sort(),
    ).toEqual(PUBLIC);
    expect(served.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('passes `redocly lint` with no error', async () => {
    const cli = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const lint = await promisify(execFile)(process.execPath, [cli, 'lint', COMMITTED, '--format=stylish'], {
      cwd: ROOT,
      env,
    }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`redocly lint failed (exit ${error.code}):\n${error.stdout}\n${error.stderr}`);
    });
    expect(`${lint.stdout}${lint.stderr}`).toMatch(/valid/);
  }, 60_000);
});
