import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { eventually } from '@app/event-store/testing';
import { freshId } from '../../support/postgres';
import { ServiceProcess, tempDataDir } from '../../reliability/support/service-process';

interface Export {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in OTLP/HTTP collector on loopback: records each export and answers 200. */
async function fakeCollector(): Promise<{ server: Server; url: string; exports: Export[] }> {
  const exports: Export[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      exports.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports };
}

/**
 * The real exporter (OTLP over HTTP/protobuf, batched) in the real service process (its HTTP
 * transport loads node:http lazily, which jest's module sandbox cannot): configured by the
 * standard variables alone, the spans of a command reach the collector named by
 * OTEL_EXPORTER_OTLP_ENDPOINT, with OTEL_EXPORTER_OTLP_HEADERS, in the caller's trace; and a
 * SIGTERM exports what is still pending.
 */
describe('traces exported over OTLP to OTEL_EXPORTER_OTLP_ENDPOINT by the service process', () => {
  let collector: Awaited<ReturnType<typeof fakeCollector>>;
  let service: ServiceProcess | undefined;
  const dataDir = tempDataDir('tracing-otlp-');

  beforeAll(async () => {
    collector = await fakeCollector();
  });

  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => collector?.server.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('posts the spans of a traced request as protobuf to <endpoint>/v1/traces, the last ones at SIGTERM', async () => {
    service = await ServiceProcess.start({
      dataDir,
      databaseUrl: process.env.DATABASE_URL,
      role: 'api',
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=spec-key',
        OTEL_SERVICE_NAME: 'agent-runtime-otlp-spec',
        // Longer than the test: the spans leave at the shutdown's flush.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
    });
    const traceId = randomBytes(16).toString('hex');
    const reply = await fetch(`${service.baseUrl}/v1/agents`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer tok-admin',
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
      body: JSON.stringify({ agent_id: freshId('otlp') }),
    });
    expect(reply.status).toBe(201);
    expect(collector.exports).toEqual([]);
    await service.stop();
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const exports = await eventually(
      'an export holding the spans of the trace',
      () => collector.exports,
      (all) => all.some((e) => e.body.includes(Buffer.from(traceId, 'hex'))),
    );
    const mine = exports.find((e) => e.body.includes(Buffer.from(traceId, 'hex')))!;
    expect(mine).toMatchObject({ method: 'POST', url: '/v1/traces' });
    expect(mine.headers['content-type']).toBe('application/x-protobuf');
    expect(mine.headers['x-collector-key']).toBe('spec-key');
    for (const text of ['agent-runtime-otlp-spec', 'POST /v1/agents', 'command RegisterAgent'])
      expect({ text, sent: mine.body.includes(text) }).toEqual({ text, sent: true });
  }, 180_000);
});
