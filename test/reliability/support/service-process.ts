import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectNode, TS_CHILD_REQUIRES } from '../../support/node-binary';
import { readServiceAddress } from '@app/application';
import { testStoreEnv } from '@app/event-store/testing';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

export interface ServiceOptions {
  /** RUNTIME_DATA_DIR (embedded Postgres in `<dataDir>/pg` unless databaseUrl is set). */
  dataDir: string;
  databaseUrl?: string;
  /** RUNTIME_API_TOKENS; default `tok-admin=*`. */
  tokens?: string;
  /** RUNTIME_ROLE; default all. */
  role?: string;
  env?: Record<string, string>;
  /** How long start-up may take (ts-node transpiles, with swc, on every start). */
  timeoutMs?: number;
}

/** A temporary directory the embedded Postgres user can traverse (it runs as `postgres` under root). */
export function tempDataDir(prefix = 'reliability-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** The run's store choice (jest globalSetup), for children that open the store themselves. */
function testRunEnv(): Record<string, string> {
  const names = ['TEST_EVENT_STORE', 'TEST_EVENTSTORE_CONNECTION_STRING', 'TEST_RUN_ID'];
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
}

/** Runs a TypeScript entry point in a child node (ts-node with swc, no type check: `npm test` type-checks); `stdin: 'pipe'` to talk to it. */
export function spawnTs(
  entry: string,
  env: Record<string, string>,
  options: { stdin?: 'ignore' | 'pipe' } = {},
): ChildProcess {
  const args = [...TS_CHILD_REQUIRES, join(REPO_ROOT, entry)];
  return spawn(projectNode(), args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...testRunEnv(), ...env },
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
}

/** Keeps the last lines of a child's output (for failure messages) and lets a caller wait for one. */
export class OutputTail {
  private lines: string[] = [];
  private partial = '';
  private waiters: Array<{ test: (line: string) => boolean; resolve: (line: string) => void }> = [];

  attach(child: ChildProcess): void {
    const take = (chunk: Buffer) => {
      const text = this.partial + chunk.toString('utf8');
      const parts = text.split('\n');
      this.partial = parts.pop() ?? '';
      for (const line of parts) this.push(line);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
  }

  wait(test: (line: string) => boolean): Promise<string> {
    const found = this.lines.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  text(last = 40): string {
    return this.lines.slice(-last).join('\n');
  }

  private push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > 400) this.lines.shift();
    for (const waiter of [...this.waiters]) {
      if (waiter.test(line)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  }
}

/**
 * The runtime service (`apps/runtime/src/main.ts`) as a real child process: started on ephemeral
 * ports, killed with SIGKILL or stopped with SIGTERM, restarted on the same data directory.
 */
export class ServiceProcess {
  readonly output = new OutputTail();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  baseUrl = '';
  startupMs = 0;

  private constructor(
    readonly child: ChildProcess,
    readonly options: ServiceOptions,
  ) {
    this.output.attach(child);
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(options: ServiceOptions): Promise<ServiceProcess> {
    const env: Record<string, string> = {
      PORT: '0',
      GRPC_PORT: '0',
      HOST: '127.0.0.1',
      RUNTIME_DATA_DIR: options.dataDir,
      RUNTIME_API_TOKENS: options.tokens ?? 'tok-admin=*',
      RUNTIME_ROLE: options.role ?? 'all',
      LOG_LEVEL: 'info',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      // The run's event store (TEST_EVENT_STORE); a service on its own embedded Postgres is Postgres-only.
      ...(options.databaseUrl ? testStoreEnv(options.databaseUrl) : {}),
      ...options.env,
    };
    const started = Date.now();
    const service = new ServiceProcess(spawnTs('apps/runtime/src/main.ts', env), options);
    const listening = service.output.wait((line) => line.includes('"runtime listening"'));
    const timeoutMs = options.timeoutMs ?? 90_000;
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      listening.then((line) => ({ line })),
      service.exited.then((exit) => ({ exit })),
      new Promise<{ timeout: true }>((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!('line' in outcome)) {
      if ('timeout' in outcome) await service.kill9();
      throw new Error(`the service did not start (${JSON.stringify(outcome)}):\n${service.output.text()}`);
    }
    service.baseUrl = (JSON.parse(outcome.line) as { httpUrl: string }).httpUrl;
    service.startupMs = Date.now() - started;
    return service;
  }

  /** `kill -9`: no shutdown hook runs, connections drop mid-transaction. */
  async kill9(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) process.kill(this.pid, 'SIGKILL');
    await this.exited;
  }

  /** SIGTERM (graceful: HTTP, store, pool, embedded Postgres), SIGKILL if it hangs. */
  async stop(timeoutMs = 20_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    process.kill(this.pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const hung = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (hung) await this.kill9();
  }

  /** The embedded Postgres's connection string (from `<dataDir>/service.json`), or DATABASE_URL. */
  async postgresUrl(): Promise<string> {
    if (this.options.databaseUrl) return this.options.databaseUrl;
    const address = await readServiceAddress(this.options.dataDir);
    if (!address) throw new Error(`no service.json in ${this.options.dataDir}`);
    return address.postgres_url;
  }
}
