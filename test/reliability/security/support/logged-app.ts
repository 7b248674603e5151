import { Writable } from 'node:stream';
import { startTestApp, type TestApp } from '../../../support/app';

export interface LoggedApp extends TestApp {
  /** Every line the process logged, as written (JSON text). */
  lines: string[];
}

/**
 * startTestApp's app with its one pino logger writing into memory at `trace` (everything:
 * request lines, RPC lines, Nest's and grpc-js's own diagnostics).
 */
export async function startLoggedApp(tokens: string, env: Record<string, string> = {}): Promise<LoggedApp> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line.length > 0),
      );
      done();
    },
  });
  const app = await startTestApp({ tokens, env: { LOG_LEVEL: 'trace', ...env }, logDestination: sink });
  return { ...app, lines };
}
