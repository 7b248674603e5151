import { writeFileSync } from 'node:fs';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore, PostgresEventStore } from '@app/event-store';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { commandJob, fastifyInsertFloor, fastifyStoreFloor, noopJob, pacedConnections } from './figures/03-http';
import { nestNoop, type Server } from './support/noop-servers';
import { LoadGenerator, type LoadResult } from './support/load';
import { type BenchPostgres, openBenchPostgres } from './support/postgres';
import { forceMinorGc, settledHeapBytes } from './support/heap';
import { collectionsDuring, describeCollections } from './support/gc';
import { areaOf } from './support/profile';
import { type RuntimeFixture, startRuntimeFixture } from './support/runtime';
import { median } from './support/stats';

/**
 * The HTTP command of figure 3 alone, for profiling its server CPU (issue 18):
 *   node_modules/.bin/node -r ./bench/support/no-repl.js -r ts-node/register/transpile-only -r tsconfig-paths/register \
 *     bench/command-profile.ts [--runs 5] [--seconds 4] [--noop] [--open 0.5] [--profile file.cpuprofile] [--top 40]
 *     [--rate N] [--phases]
 * Prints the server's CPU µs per command of each closed-loop run and their median; with --noop,
 * each run is followed by one of figure 3's Nest no-op route (the yardstick of the machine's
 * state: the ratio of the two medians is the least blurred figure on a shared machine); with --open,
 * one paced open-loop run at that share of the median closed-loop rate (figure 3's latency run)
 * and its latency percentiles; with --profile, one more run under the V8 profiler, written to
 * the file, and the functions with the most self time (and the areas) printed. With --phases, the
 * open-loop run also reports the server's side of each command (request headers parsed to response
 * finished), the event store's append within it, the time from the append's answer to the response's end, the event
 * loop's delay and the store's appends per call. With --alloc file.heapprofile, one more run under V8's
 * sampling heap profiler (every allocation by stack; with --live, only what is alive after full collections;
 * with --survivors, only what outlived a scavenge: what the command promotes to the old generation).
 * --pg 'name = value;...': ALTER SYSTEM settings of the bench Postgres (reloaded) before the runs. --warm S: the closed-loop warm-up before the runs lasts S seconds (default 2). With --profile-rate N, the profiled run (and the allocation-profiled one) is paced at N commands/s. With --rate N, only `--runs` paced runs at N commands/s (see pacedRuns); with --floor too, each paired
 * with a run of figure 3's floor (bare Fastify + one INSERT per request) at the same rate, and the collections
 * (minor and major, their pauses) during each command run. --spin-curve 0,100,200:50,0:0:200 with --rate N: figure 3's
 * store floor made busier per request (µs before its append[:KB of garbage[:µs after its answer]]), paced in rounds
 * with the command (see spinCurve).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Connections of a run: the closed loop's 16, or a paced run's (docs/decisions/0058). */
const connectionsFor = (rate?: number): number => (rate ? pacedConnections(rate, 16) : 16);

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

function selfTimes(nodes: ProfileNode[], top: number): string[] {
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)') continue;
    busy += hits;
    const area = areaOf(url, functionName);
    const file = url.replace(/^.*?\/(libs|apps|node_modules)\//, '$1/');
    const name = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    byArea.set(area, (byArea.get(area) ?? 0) + hits);
  }
  const lines = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, hits]) => `${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
  return ['areas:', ...lines(byArea, 15), 'functions (self):', ...lines(byFunction, top)];
}

/**
 * Percentiles of the server's side of each request and of the store's appends, the event loop's
 * delay (a collector pause or a long task shows there), and the store's appends per call
 * (group commit, ADR 0047) during the run (--phases).
 */
function instrument(app: RuntimeFixture['app']): { report(): string } {
  if (!app) throw new Error('--phases needs the app of the runtime fixture');
  const server = app.getHttpServer() as HttpServer;
  const total: number[] = [];
  const appends: number[] = [];
  const afterCommit: number[] = [];
  // An agent has one command in flight at a time (its queue): its stream names the request.
  const answeredAt = new Map<string, number>();
  /** Per stream, when its append was made and when the call carrying it was sent. */
  const appendedAt = new Map<string, number>();
  const sentAt = new Map<string, number>();
  /** Per command: [server side, before the append, waiting for a call, the call, after the answer] (ms). */
  const steps: number[][] = [];
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const stream = agentStream(/\/v1\/agents\/([^/]+)\//.exec(request.url ?? '')?.[1] ?? '');
    response.once('finish', () => {
      const finished = performance.now();
      total.push(finished - started);
      const answered = answeredAt.get(stream);
      const appended = appendedAt.get(stream);
      const sent = sentAt.get(stream);
      for (const marks of [answeredAt, appendedAt, sentAt]) marks.delete(stream);
      if (answered !== undefined) afterCommit.push(finished - answered);
      if (answered !== undefined && appended !== undefined && sent !== undefined && appended >= started)
        steps.push([finished - started, appended - started, sent - appended, answered - sent, finished - answered]);
    });
  });
  const store = app.get<EventStore>(EVENT_STORE);
  const ownAppend = store.appendToStream;
  const append = ownAppend.bind(store);
  store.appendToStream = async (...args) => {
    const started = performance.now();
    appendedAt.set(args[0], started);
    try {
      return await append(...args);
    } finally {
      const answered = performance.now();
      appends.push(answered - started);
      answeredAt.set(args[0], answered);
    }
  };
  // The Postgres store's calls (group commit): when each append left in one (a private method, wrapped for the run).
  const calls = store as unknown as { sendAppends?: (batch: Array<{ stream: string }>) => Promise<unknown> };
  const ownSend = calls.sendAppends;
  if (typeof ownSend === 'function') {
    const send = ownSend.bind(store);
    calls.sendAppends = (batch) => {
      const at = performance.now();
      for (const { stream } of batch) sentAt.set(stream, at);
      return send(batch);
    };
  }
  const stats = () => (store instanceof PostgresEventStore ? store.appendStats : null);
  const callsBefore = stats();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length
      ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(2)
      : '-';
  };
  const line = (name: string, values: number[]) =>
    `${name} p50 ${pct(values, 50)} / p90 ${pct(values, 90)} / p99 ${pct(values, 99)} / max ${values.length ? Math.max(...values).toFixed(2) : '-'} ms (${values.length})`;
  const grouping = () => {
    const after = stats();
    if (!after || !callsBefore) return '';
    const made = after.calls - callsBefore.calls;
    return `; ${((after.appends - callsBefore.appends) / Math.max(1, made)).toFixed(2)} appends per store call (${made} calls)`;
  };
  /** Mean of each step over the commands, and over the slowest 1% of them (by their server side). */
  const breakdown = () => {
    if (steps.length === 0) return '';
    const slowest = [...steps].sort((a, b) => b[0] - a[0]).slice(0, Math.max(1, Math.floor(steps.length / 100)));
    const means = (rows: number[][]) =>
      ['before the append', 'waiting for a call', 'the call', 'after its answer']
        .map((name, i) => `${name} ${(rows.reduce((sum, row) => sum + row[i + 1], 0) / rows.length).toFixed(2)}`)
        .join(' / ');
    return `\n        steps, mean ms: all commands ${means(steps)}; the slowest 1% (${slowest.length}) ${means(slowest)}`;
  };
  return {
    report: () => {
      loop.disable();
      // The next run's instrument wraps the store afresh.
      store.appendToStream = ownAppend;
      if (ownSend) calls.sendAppends = ownSend;
      const ms = (ns: number) => (ns / 1e6).toFixed(2);
      return (
        `        server side: ${line('request to response finished', total)}; ${line('store append', appends)}; ` +
        `${line('append answered to response finished', afterCommit)}` +
        breakdown() +
        '\n' +
        `        event loop delay p50 ${ms(loop.percentile(50))} / p99 ${ms(loop.percentile(99))} / max ${ms(loop.max)} ms` +
        grouping()
      );
    },
  };
}

/**
 * --rate N: paced open-loop runs at N commands/s only (no closed-loop maximum first), after a paced
 * warm-up that also warms the load generator's own code: repeatable latency runs at one rate, e.g.
 * to compare two builds at figure 3's half rate.
 */
async function pacedRuns(
  runtime: RuntimeFixture,
  load: LoadGenerator,
  rate: number,
  runs: number,
  seconds: number,
  log: (line: string) => void,
): Promise<void> {
  const connections = connectionsFor(rate);
  await load.run(commandJob(runtime, connections, 2, rate));
  const p99s: number[] = [];
  for (let i = 0; i < runs; i++) {
    const phases = process.argv.includes('--phases') ? instrument(runtime.app) : null;
    const result = await load.run(commandJob(runtime, connections, seconds, rate));
    p99s.push(result.p99);
    log(
      `run ${i + 1} at ${rate}/s: ${result.rate.toFixed(0)} commands/s, p50 ${result.p50.toFixed(2)} ms, ` +
        `p90 ${result.p90.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, server CPU ${result.serverCpuUs.toFixed(0)} µs/command, ` +
        `errors ${result.errors}, p99 wait for one of ${connections} connections ${(result.connectionWaitP99 ?? 0).toFixed(2)} ms`,
    );
    if (phases) log(phases.report());
  }
  log(`median p99 at ${rate}/s: ${median(p99s).toFixed(2)} ms (${p99s.map((p) => p.toFixed(1)).join(' / ')})`);
}

/**
 * --spin-curve 0,100,200 (with --rate N): what latency a request of a given CPU cost gets at that
 * rate on this machine. Figure 3's store floor (bare Fastify, one event appended through the store)
 * with each request keeping the thread busy for the given µs before its append (and, per level,
 * leaving KB of garbage and busy µs after the append's answer: `200:50`, `0:0:200`), paced at N/s
 * in rounds interleaved with the command itself; per level the median p99 and server CPU of its runs.
 */
async function spinCurve(
  pg: BenchPostgres,
  runtime: RuntimeFixture,
  load: LoadGenerator,
  rate: number,
  levels: string[],
  rounds: number,
  seconds: number,
  log: (line: string) => void,
): Promise<void> {
  // A level is `µs[:KB[:µs after]]`: busy before the append, garbage left, busy after the append's answer.
  const parsed = levels.map((level) => {
    const [spinMicros = NaN, garbageKb = 0, afterMicros = 0] = level.split(':').map(Number);
    return { spinMicros, garbageKb, afterMicros };
  });
  if (!(rate > 0) || parsed.some((l) => !(l.spinMicros >= 0 && l.garbageKb >= 0 && l.afterMicros >= 0)))
    throw new Error('--spin-curve needs --rate N and levels in µs[:KB[:µs after]], e.g. 0,100,200,200:50,100:0:100');
  const floors = await Promise.all(parsed.map((level) => fastifyStoreFloor(pg, level)));
  const jobs = [
    ...floors.map((floor, i) => {
      const { spinMicros, garbageKb, afterMicros } = parsed[i];
      return {
        name: `floor + ${spinMicros} µs${garbageKb ? ` + ${garbageKb} KB` : ''}${afterMicros ? ` + ${afterMicros} µs after` : ''}`,
        job: () => commandJob({ ...runtime, httpUrl: floor.url }, connectionsFor(rate), seconds, rate),
      };
    }),
    { name: 'command', job: () => commandJob(runtime, connectionsFor(rate), seconds, rate) },
  ];
  try {
    for (const { job } of jobs) await load.run({ ...job(), seconds: 2 });
    const results = jobs.map((): LoadResult[] => []);
    for (let round = 0; round < rounds; round++) {
      for (const [i, { name, job }] of jobs.entries()) {
        const result = await load.run(job());
        results[i].push(result);
        log(
          `round ${round + 1} ${name}: p50 ${result.p50.toFixed(2)} p99 ${result.p99.toFixed(2)} ms, server CPU ${result.serverCpuUs.toFixed(0)} µs`,
        );
      }
    }
    for (const [i, { name }] of jobs.entries()) {
      const p99s = results[i].map((r) => r.p99);
      log(
        `${name}: median p99 ${median(p99s).toFixed(2)} ms (${p99s.map((p) => p.toFixed(1)).join(' / ')}), ` +
          `median server CPU ${median(results[i].map((r) => r.serverCpuUs)).toFixed(0)} µs/request`,
      );
    }
  } finally {
    for (const floor of floors) await floor.close();
  }
}

async function main(): Promise<void> {
  const runs = Number(option('runs', '5'));
  const seconds = Number(option('seconds', '4'));
  const profileFile = option('profile', '');
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const pg = await openBenchPostgres(log);
  for (const setting of option('pg', '').split(';').filter(Boolean)) {
    await pg.monitor.query(`ALTER SYSTEM SET ${setting}`);
    await pg.monitor.query('SELECT pg_reload_conf()');
    log(`Postgres: ${setting}`);
  }
  const load = new LoadGenerator();
  const runtime = await startRuntimeFixture(pg, 64);
  const noop: Server | null = process.argv.includes('--noop') ? await nestNoop() : null;
  try {
    await load.run(commandJob(runtime, 16, Number(option('warm', '2'))));
    const fixedRate = Number(option('rate', '0'));
    if (process.argv.includes('--floor')) {
      const floor = await fastifyInsertFloor(pg);
      const floorRuntime = { ...runtime, httpUrl: floor.url };
      await load.run(commandJob(floorRuntime, connectionsFor(fixedRate), 2, fixedRate));
      const p99s = { floor: [] as number[], command: [] as number[] };
      for (let i = 0; i < runs; i++) {
        const f = await load.run(commandJob(floorRuntime, connectionsFor(fixedRate), seconds, fixedRate));
        const gc = collectionsDuring();
        const c = await load.run(commandJob(runtime, connectionsFor(fixedRate), seconds, fixedRate));
        const collections = describeCollections(gc.stop());
        p99s.floor.push(f.p99);
        p99s.command.push(c.p99);
        log(
          `pair ${i + 1} at ${fixedRate}/s: floor p50 ${f.p50.toFixed(2)} p99 ${f.p99.toFixed(2)} ms, ` +
            `server CPU ${f.serverCpuUs.toFixed(0)} µs | command p50 ${c.p50.toFixed(2)} p99 ${c.p99.toFixed(2)} ms, ` +
            `server CPU ${c.serverCpuUs.toFixed(0)} µs; ${collections}`,
        );
      }
      log(`median p99: floor ${median(p99s.floor).toFixed(2)} ms, command ${median(p99s.command).toFixed(2)} ms`);
      await floor.close();
      return;
    }
    const curve = option('spin-curve', '');
    if (curve) {
      await spinCurve(pg, runtime, load, fixedRate, curve.split(','), runs, seconds, log);
      return;
    }
    if (fixedRate > 0) {
      await pacedRuns(runtime, load, fixedRate, runs, seconds, log);
      return;
    }
    const cpu: number[] = [];
    const rates: number[] = [];
    const noopCpu: number[] = [];
    if (noop) await load.run(noopJob(noop, 16, 1));
    for (let i = 0; i < runs; i++) {
      const result = await load.run(commandJob(runtime, 16, seconds));
      cpu.push(result.serverCpuUs);
      rates.push(result.rate);
      log(
        `run ${i + 1}: ${result.rate.toFixed(0)} commands/s, server CPU ${result.serverCpuUs.toFixed(0)} µs/command, ` +
          `p50 ${result.p50.toFixed(1)} ms, errors ${result.errors}`,
      );
      if (noop) {
        const nest = await load.run(noopJob(noop, 16, seconds));
        noopCpu.push(nest.serverCpuUs);
        log(`        Nest no-op: ${nest.rate.toFixed(0)} req/s, server CPU ${nest.serverCpuUs.toFixed(1)} µs/request`);
      }
    }
    log(
      `median server CPU: ${median(cpu).toFixed(0)} µs/command, least ${Math.min(...cpu).toFixed(0)} ` +
        `(${cpu.map((c) => c.toFixed(0)).join(' / ')})`,
    );
    if (noop) {
      log(
        `median Nest no-op CPU: ${median(noopCpu).toFixed(1)} µs/request, least ${Math.min(...noopCpu).toFixed(1)}; ` +
          `command / no-op ${(median(cpu) / median(noopCpu)).toFixed(1)}x (medians), ` +
          `${(Math.min(...cpu) / Math.min(...noopCpu)).toFixed(1)}x (least)`,
      );
    }
    const open = Number(option('open', '0'));
    if (open > 0 && rates.length > 0) {
      const rate = Math.max(1, Math.round(median(rates) * open));
      const phases = process.argv.includes('--phases') ? instrument(runtime.app) : null;
      const result = await load.run(commandJob(runtime, connectionsFor(rate), seconds, rate));
      if (phases) log(phases.report());
      log(
        `open loop at ${rate}/s (${open} of ${median(rates).toFixed(0)}/s): ${result.rate.toFixed(0)} commands/s, ` +
          `p50 ${result.p50.toFixed(2)} ms, p90 ${result.p90.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
          `server CPU ${result.serverCpuUs.toFixed(0)} µs/command, errors ${result.errors}`,
      );
      if (noop) {
        const nest = await load.run(noopJob(noop, connectionsFor(rate), seconds, rate));
        log(
          `        Nest no-op at ${rate}/s: p50 ${nest.p50.toFixed(2)} ms, p90 ${nest.p90.toFixed(2)} ms, p99 ${nest.p99.toFixed(2)} ms`,
        );
      }
    }
    /** The profiled runs' pace (--profile-rate), or the closed loop. */
    const profileRate = Number(option('profile-rate', '0')) || undefined;
    const allocFile = option('alloc', '');
    if (allocFile) {
      // V8's sampling heap profiler over one closed-loop run: every allocation (by stack), or with
      // --live only what is still alive after full collections at its end.
      const live = process.argv.includes('--live');
      const session = new Session();
      session.connect();
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: !live,
        // --survivors: what outlived a scavenge (promoted, then alive or collected by a major GC).
        includeObjectsCollectedByMinorGC: !live && !process.argv.includes('--survivors'),
      });
      const result = await load.run(commandJob(runtime, connectionsFor(profileRate), seconds, profileRate));
      if (live) log(`heap after full collections: ${((await settledHeapBytes()) / 1e6).toFixed(1)} MB`);
      // Without a scavenge at the end, everything allocated since the last one would count as surviving.
      else if (process.argv.includes('--survivors')) forceMinorGc();
      const { profile } = await session.post('HeapProfiler.stopSampling');
      session.disconnect();
      writeFileSync(allocFile, JSON.stringify(profile));
      log(
        `allocation-profiled run: ${result.rate.toFixed(0)} commands/s, ${Math.round(result.rate * seconds)} commands`,
      );
    }
    if (profileFile) {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      const result = await load.run(commandJob(runtime, connectionsFor(profileRate), seconds, profileRate));
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      writeFileSync(profileFile, JSON.stringify(profile));
      log(`profiled run: ${result.rate.toFixed(0)} commands/s, ${result.serverCpuUs.toFixed(0)} µs/command`);
      for (const line of selfTimes(profile.nodes as ProfileNode[], Number(option('top', '40')))) log(line);
    }
  } finally {
    await noop?.close();
    await runtime.close();
    await load.close();
    await pg.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
