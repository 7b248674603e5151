import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { testStoreEnv } from '@app/event-store/testing';
import { runtimeNodeFlags } from './node-flags';
import { nowNs } from './stats';

/** VmRSS and VmHWM (peak RSS) of a live process, in MB, from /proc/<pid>/status (null where there is no /proc). */
export function processMemory(pid: number): { rssMb: number; peakMb: number } | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * The runtime's real entry (`main`: apps/runtime/src/main, built by compileRuntime) as a child
 * process of the bench, on the schema of `databaseUrl`, with RUNTIME_ROLE and the rest of `env`:
 * ephemeral ports on loopback, its metrics on a listener of their own (METRICS_PORT=0), stopped
 * by pid. It marks the moment the child's modules are loaded: the `agent-runtime role=` line
 * that `bootstrap` prints before the app is created.
 */
export class RuntimeProcess {
  /** hrtime (ns) of the spawn, of the bootstrap line (modules loaded), of "runtime listening". */
  readonly marks: { spawned: bigint; booting?: bigint; listening?: bigint };
  /** Wall clock (ms) of the bootstrap line, to compare with times the store records. */
  bootingWallMs = 0;
  metricsUrl = '';
  private readonly lines: string[] = [];
  private readonly exited: Promise<void>;
  private waiters: Array<() => void> = [];

  private constructor(private readonly child: ChildProcess) {
    this.marks = { spawned: nowNs() };
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let partial = '';
    const take = (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) this.seen(line);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('exit', () => this.waiters.splice(0).forEach((wake) => wake()));
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(
    main: string,
    databaseUrl: string,
    dataDir: string,
    env: Record<string, string>,
  ): Promise<RuntimeProcess> {
    const child = spawn(process.execPath, [...runtimeNodeFlags(), main], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        GRPC_PORT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        RUNTIME_DATA_DIR: dataDir,
        RUNTIME_API_TOKENS: 'tok-bench=*',
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'info',
        ...testStoreEnv(databaseUrl),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const runtime = new RuntimeProcess(child);
    try {
      await runtime.until(() => runtime.marks.listening !== undefined, 600_000);
    } catch (error) {
      await runtime.stop();
      throw error;
    }
    return runtime;
  }

  /** The value of one unlabelled sample of GET /metrics (NaN when absent). */
  async metric(name: string): Promise<number> {
    const text = await (await fetch(this.metricsUrl)).text();
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
    return line === undefined ? NaN : Number(line.slice(name.length + 1));
  }

  memory(): { rssMb: number; peakMb: number } | null {
    return processMemory(this.pid);
  }

  /** SIGTERM (graceful), SIGKILL after 15 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    process.kill(this.pid, 'SIGTERM');
    const timer = setTimeout(() => this.child.exitCode === null && process.kill(this.pid, 'SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  private seen(line: string): void {
    this.lines.push(line);
    if (this.lines.length > 60) this.lines.shift();
    if (this.marks.booting === undefined && line.startsWith('agent-runtime role=')) {
      this.marks.booting = nowNs();
      this.bootingWallMs = Date.now();
    }
    if (this.marks.listening === undefined && line.includes('"runtime listening"')) {
      this.marks.listening = nowNs();
      this.metricsUrl = `${(JSON.parse(line) as { metricsUrl: string }).metricsUrl}/metrics`;
    }
    this.waiters.splice(0).forEach((wake) => wake());
  }

  private async until(test: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (this.child.exitCode !== null || this.child.signalCode !== null || Date.now() > deadline)
        throw new Error(`the runtime process did not start:\n${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 1_000);
      });
    }
  }
}
