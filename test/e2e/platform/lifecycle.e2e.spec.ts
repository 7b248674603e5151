import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from '@app/event-store';
import { createEventStore } from '@app/event-store';
import type { EventStoreFactory } from '@app/platform';
import { startTestApp, type TestApp } from '../../support/app';
import { ProbeModule } from './support/probe.module';

describe('a runtime started without RUNTIME_API_TOKENS', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ tokens: null, modules: [ProbeModule] });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('generates an admin token file (mode 0600) that works as a bearer token', async () => {
    const path = join(app.dataDir, 'admin-token');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const token = readFileSync(path, 'utf8').trim();
    const admin = await fetch(`${app.baseUrl}/v1/agents/agent-a/ping`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await admin.json()).toMatchObject({ caller: 'admin-token' });
    expect((await fetch(`${app.baseUrl}/v1/agents/agent-a/ping`)).status).toBe(401);
  });
});

describe('GET /health when the event store is down', () => {
  let app: TestApp;
  const failingStore: EventStoreFactory = async (options) => {
    const real = await createEventStore(options);
    return Object.assign(Object.create(real) as EventStore, { ping: () => Promise.reject(new Error('unreachable')) });
  };
  beforeAll(async () => {
    app = await startTestApp({ eventStoreFactory: failingStore });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 503 with the failing check in the envelope', async () => {
    const res = await fetch(`${app.baseUrl}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: {
        code: 'unavailable',
        message: 'event_store unreachable',
        details: { status: 'unavailable', checks: { event_store: 'down', postgres: 'up' }, projection_lag: null },
      },
    });
  });
});

describe('RUNTIME_ROLE', () => {
  it('projector: health served, no gRPC server, no API', async () => {
    const app = await startTestApp({ env: { RUNTIME_ROLE: 'projector' } });
    try {
      expect(app.grpcAddress).toBeNull();
      expect((await fetch(`${app.baseUrl}/health`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('a runtime that cannot bind its gRPC port', () => {
  it('fails to start with a clear error and releases what it opened', async () => {
    const first = await startTestApp();
    try {
      const port = first.grpcAddress!.split(':')[1]!;
      await expect(startTestApp({ env: { GRPC_PORT: port } })).rejects.toThrow(
        /gRPC cannot listen on 127\.0\.0\.1:\d+/,
      );
      expect((await fetch(`${first.baseUrl}/health`)).status).toBe(200);
    } finally {
      await first.close();
    }
  });
});
