import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pacedConnections } from '../../bench/figures/03-http';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, run as is by the load generator's child process
const { pacedHttp } = require('../../bench/support/paced-http') as {
  pacedHttp(job: {
    url: string;
    method: string;
    path: string;
    connections: number;
    seconds: number;
    overallRate: number;
  }): Promise<{ ok: number; errors: number; p99: number; connectionWaitP99: number }>;
};

/**
 * The paced open loop of figure 3 (docs/decisions/0058): a request that finds every connection busy
 * waits for one and that wait is counted and reported, so a run the client held back says so.
 */
describe('the paced load generator', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    // Every answer takes 30 ms: one connection carries about 33 requests/s.
    server = createServer((_request, response) => {
      setTimeout(() => response.end('{}'), 30);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const run = (connections: number) =>
    pacedHttp({ url, method: 'GET', path: '/', connections, seconds: 0.6, overallRate: 100 });

  it('counts the wait for a connection when the rate needs more than it may open', async () => {
    const result = await run(1);
    expect(result.errors).toBe(0);
    // 60 requests due over 0.6 s, answered one at a time at 30 ms each: the last waits about a second.
    expect(result.connectionWaitP99).toBeGreaterThan(500);
    expect(result.p99).toBeGreaterThan(result.connectionWaitP99);
  });

  it('opens connections as needed, and then no request waits for one', async () => {
    const result = await run(pacedConnections(100, 8));
    expect(result.errors).toBe(0);
    expect(result.ok).toBe(60);
    expect(result.connectionWaitP99).toBeLessThan(5);
    expect(result.p99).toBeLessThan(500);
  });

  it('sizes a paced run for 32 ms of its rate, between the closed loop and 256 connections', () => {
    expect(pacedConnections(2_000, 16)).toBe(64);
    expect(pacedConnections(100, 16)).toBe(16);
    expect(pacedConnections(15_000, 16)).toBe(256);
  });
});
