import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { appendFigure } from './figures/01-append';
import { batchFigure } from './figures/02-batch';
import { httpFigure } from './figures/03-http';
import { grpcFigure } from './figures/04-grpc';
import { rebuildFigure } from './figures/05-rebuild';
import { lagFigure } from './figures/06-lag';
import { loadFigure } from './figures/07-load';
import { decideFigure } from './figures/08-decide';
import { memoryFigure } from './figures/09-memory';
import { wakeFigure } from './figures/10-wake';
import { schedulerReplicasFigure } from './figures/14-scheduler-replicas';
import { type BenchReport, type FigureResult, type MachineInfo, renderMarkdown } from './report';
import type { BenchContext, Figure } from './support/context';
import { LoadGenerator } from './support/load';
import { type BenchPostgres, openBenchPostgres } from './support/postgres';
import { type RuntimeFixture, startRuntimeFixture } from './support/runtime';
import { msSince, nowNs } from './support/stats';
import {
  benchStoreKind,
  describeStore,
  figureStore,
  onFigureStore,
  openBenchEventStoreDb,
  storeSentence,
} from './support/store';

export const FIGURES: Figure[] = [
  appendFigure,
  batchFigure,
  httpFigure,
  grpcFigure,
  rebuildFigure,
  lagFigure,
  loadFigure,
  decideFigure,
  memoryFigure,
  wakeFigure,
  schedulerReplicasFigure,
];

const ROOT = resolve(__dirname, '..');
export const FULL_REPORT_PATH = join(ROOT, 'docs', 'benchmarks.md');

export interface BenchOptions {
  quick: boolean;
  /** Figure ids to run (default all). */
  only?: number[];
  /** Where the Markdown report goes; default docs/benchmarks.md for a full run of every figure, none otherwise. */
  out?: string | null;
  log?: (line: string) => void;
}

export interface BenchOutcome {
  report: BenchReport;
  markdown: string;
  path: string | null;
}

function commitOf(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${sha} (with uncommitted changes to tracked files)` : sha;
  } catch {
    return 'unknown (no git)';
  }
}

async function machineInfo(pg: BenchPostgres): Promise<MachineInfo> {
  const cpuList = cpus();
  return {
    cores: cpuList.length,
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    memoryGb: totalmem() / 1024 ** 3,
    node: process.version,
    postgres: pg.version,
    postgresSettings: await pg.settings(),
    embeddedPostgres: pg.embedded,
    commit: commitOf(),
  };
}

/** Runs the figures in order on one Postgres and writes the report. */
export async function runBench(options: BenchOptions): Promise<BenchOutcome> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const started = nowNs();
  const startedAt = new Date().toISOString();
  const figures = FIGURES.filter((figure) => !options.only || options.only.includes(figure.id));
  const storeKind = benchStoreKind();
  const esdb = await openBenchEventStoreDb(log);
  const pg = await openBenchPostgres(log, { recycleWal: !options.quick });
  const load = new LoadGenerator();
  const runtime: { started: Promise<RuntimeFixture> | null } = { started: null };
  const results: FigureResult[] = [];
  const skipped: string[] = [];
  try {
    const ctx: BenchContext = {
      quick: options.quick,
      pg,
      load,
      log,
      scale: (full, quick) => (options.quick ? quick : full),
      concurrency: options.quick ? 4 : 16,
      // Four agents per request in flight: two commands on one agent at once would conflict and retry.
      runtime: () => (runtime.started ??= startRuntimeFixture(pg, options.quick ? 16 : 64)),
      shared: {},
    };
    const machine = { ...(await machineInfo(pg)), eventStore: describeStore(storeKind, esdb.missing) };
    log(
      `${options.quick ? 'quick' : 'full'} run: ${machine.cores} cores, Node ${machine.node}, Postgres ${machine.postgres}, commit ${machine.commit}`,
    );
    for (const [index, figure] of figures.entries()) {
      const store = figureStore(figure.id, storeKind);
      if (store === 'esdb' && esdb.missing) {
        skipped.push(`SKIPPED: figure ${figure.id} (${figure.title}) on EventStoreDB (${esdb.missing})`);
        log(skipped[skipped.length - 1]);
        continue;
      }
      log(`[${figure.id}] ${figure.title}`);
      const figureStart = nowNs();
      const body = await onFigureStore(store, () => figure.run(ctx));
      const method = `${body.method} ${storeSentence(figure.id, storeKind)}`;
      results.push({ id: figure.id, title: figure.title, ...body, method, seconds: msSince(figureStart) / 1000 });
      log(`    done in ${(msSince(figureStart) / 1000).toFixed(1)} s`);
      if (runtime.started && !figures.slice(index + 1).some((later) => later.usesRuntime)) {
        const fixture = await runtime.started;
        runtime.started = null;
        await fixture.close();
      }
    }
    const report: BenchReport = {
      mode: options.quick ? 'quick' : 'full',
      startedAt,
      seconds: msSince(started) / 1000,
      machine,
      figures: results,
      ...(skipped.length ? { skipped } : {}),
    };
    const markdown = renderMarkdown(report);
    // docs/benchmarks.md is the Postgres store's report: a run on EventStoreDB writes one only with --out.
    const full = !options.quick && !options.only && storeKind === 'postgres';
    const path = options.out === undefined ? (full ? FULL_REPORT_PATH : null) : options.out;
    if (path) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, markdown);
    }
    return { report, markdown, path };
  } finally {
    if (runtime.started) await (await runtime.started.catch(() => null))?.close().catch(() => undefined);
    await load.close();
    await pg.close();
    await esdb.close();
  }
}
