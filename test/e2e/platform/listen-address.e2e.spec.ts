import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Writable } from 'node:stream';
import { startTestApp, type TestApp } from '../../support/app';

// Issue 14, item 9: the start-up log names what the servers are bound to (HOST), HTTP and gRPC
// alike, and the servers bind exactly there.

/** An IPv4 address of this machine other than the loopback, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;

/** Whether a TCP connection to host:port is accepted. */
const reachable = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    const settle = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });

async function startWithHost(host: string): Promise<{ app: TestApp; listening: Record<string, any> }> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = await startTestApp({ env: { HOST: host, LOG_LEVEL: 'info' }, logDestination: sink });
  const line = lines.map((text) => JSON.parse(text)).find((entry) => entry.msg === 'runtime listening');
  return { app, listening: line };
}

const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));

describe.each([['127.0.0.1'], ['0.0.0.0']])('HOST=%s', (host) => {
  let app: TestApp;
  let logged: Record<string, any>;
  beforeAll(async () => {
    ({ app, listening: logged } = await startWithHost(host));
  });
  afterAll(() => app?.close());

  it('logs the address HTTP and gRPC are bound to, and a local address to reach them', () => {
    expect(logged.listening).toEqual({
      http: expect.stringMatching(new RegExp(`^${host.replace(/\./g, '\\.')}:\\d+$`)),
      grpc: expect.stringMatching(new RegExp(`^${host.replace(/\./g, '\\.')}:\\d+$`)),
    });
    expect(logged.httpUrl).toBe(app.baseUrl);
    expect(app.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(logged.grpcAddress).toBe(app.grpcAddress);
  });

  it('binds exactly there: another interface answers only for 0.0.0.0', async () => {
    const ports = [portOf(logged.listening.http), portOf(logged.listening.grpc)];
    for (const port of ports) expect(await reachable('127.0.0.1', port)).toBe(true);
    if (externalAddress === undefined) return; // a machine with the loopback only
    for (const port of ports) expect(await reachable(externalAddress, port)).toBe(host === '0.0.0.0');
  });
});
