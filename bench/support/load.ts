import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

/** What the load generator reports for one run (latencies in ms). */
export interface LoadResult {
  ok: number;
  errors: number;
  seconds: number;
  /** Successful requests per second. */
  rate: number;
  p50: number;
  p90: number;
  p99: number;
  samples: number;
  firstError?: string | null;
  /** CPU time of this (the server's) process per successful request, in µs. */
  serverCpuUs: number;
  /** Share of one core this process used during the run (1 = a core fully busy). */
  serverBusy: number;
  /** CPU time of the load generator per successful request, in µs, and its share of a core. */
  clientCpuUs: number;
  clientBusy: number;
  statusCodes?: Record<string, { count: number }>;
  /** Paced runs: the p99 of how long a request waited for a free connection, in ms (docs/decisions/0058). */
  connectionWaitP99?: number | null;
}

interface Common {
  connections: number;
  seconds: number;
  /** Open loop at this many requests per second (default: closed loop, as fast as answered). */
  overallRate?: number;
  /** `{agent}` in a path or request picks these round-robin; `{n}` is a request counter. */
  agents?: string[];
  counterStart?: number;
}

export interface HttpJob extends Common {
  kind: 'http';
  url: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface GrpcJob extends Common {
  kind: 'grpc';
  address: string;
  protoFile: string;
  protoDir: string;
  /** Fully qualified, e.g. `agent_runtime.v1.AgentRuntime`. */
  service: string;
  method: string;
  /** Client channels (HTTP/2 connections) the calls are spread over; default 1. */
  channels?: number;
  /** JSON template of the request. */
  request: string;
  token: string;
}

/**
 * The load generator as a child process (bench/support/load-generator.js): autocannon for
 * HTTP, unary calls over node:http2 for gRPC. Started once, one job at a time.
 */
export class LoadGenerator {
  private child: ChildProcess | null = null;
  private nextId = 0;
  private pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  /** Runs one job; the servers live in this process, so its CPU time during the job is theirs. */
  async run(job: HttpJob | GrpcJob): Promise<LoadResult> {
    const child = this.start();
    const id = ++this.nextId;
    const cpu = process.cpuUsage();
    const result = await new Promise<LoadResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      child.send({ id, job });
    });
    const used = process.cpuUsage(cpu);
    const cpuUs = used.user + used.system;
    // A run in which nothing completed has no latencies: the child says null, the figures say NaN.
    const latency = (value: number | null) => value ?? Number.NaN;
    return {
      ...result,
      p50: latency(result.p50),
      p90: latency(result.p90),
      p99: latency(result.p99),
      serverCpuUs: result.ok ? cpuUs / result.ok : Number.NaN,
      serverBusy: cpuUs / 1e6 / result.seconds,
    };
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.disconnect();
    const timer = setTimeout(() => child.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(join(__dirname, 'load-generator.js'), [], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: { id: number; result?: LoadResult; error?: string }) => {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`load generator: ${message.error}`));
      else waiter.resolve(message.result!);
    });
    child.on('exit', (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`load generator exited (${code})`));
      this.pending.clear();
      if (this.child === child) this.child = null;
    });
    this.child = child;
    return child;
  }
}
