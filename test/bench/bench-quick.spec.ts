import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIGURES, runBench, type BenchOutcome } from '../../bench/run';

/**
 * `npm run bench -- --quick` as a spec, so that the benchmark code cannot rot: every figure runs
 * with tiny counts on the run's Postgres (DATABASE_URL, in schemas of its own). It checks the
 * report's structure only: no figure here is a measurement, so nothing asserts on timing.
 */
describe('npm run bench -- --quick', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-quick-'));
  const out = join(dir, 'benchmarks.md');
  let outcome: BenchOutcome;

  beforeAll(async () => {
    outcome = await runBench({ quick: true, out, log: () => undefined });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every figure, in order, each with at least one finite figure', () => {
    expect(outcome.report.mode).toBe('quick');
    expect(outcome.report.figures.map((f) => f.id)).toEqual(FIGURES.map((f) => f.id));
    expect(outcome.report.figures.map((f) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14]);
    for (const figure of outcome.report.figures) {
      expect(figure.checks.length).toBeGreaterThan(0);
      for (const check of figure.checks) {
        expect(Number.isFinite(check.measured.value)).toBe(true);
        if (check.baseline) expect(Number.isFinite(check.baseline.value)).toBe(true);
        if (check.ratio !== undefined) expect(Number.isFinite(check.ratio)).toBe(true);
        if (check.target !== undefined) expect(typeof check.met).toBe('boolean');
      }
    }
  });

  it('gives every missed target a note', () => {
    for (const figure of outcome.report.figures) {
      if (figure.checks.some((check) => check.met === false)) expect(figure.notes.join(' ')).toMatch(/miss/i);
    }
  });

  it('writes the Markdown report: machine, versions, commit, the summary table and one section per figure', () => {
    const markdown = readFileSync(out, 'utf8');
    expect(outcome.path).toBe(out);
    expect(markdown).toBe(outcome.markdown);
    expect(markdown).toMatch(/^# Benchmarks/);
    expect(markdown).toMatch(/\| machine \| \d+ cores/);
    expect(markdown).toMatch(/\| Node \| v\d+/);
    expect(markdown).toMatch(/\| Postgres \| \d+/);
    expect(markdown).toMatch(/\| commit \| \S+/);
    expect(markdown).toContain('| # | figure | measured | baseline | ratio | target | verdict |');
    const summary = markdown.slice(markdown.indexOf('## Summary'), markdown.indexOf('## 1. '));
    const summaryRows = summary.split('\n').filter((line) => /^\| [1-9]\d* \|/.test(line));
    expect(summaryRows.length).toBe(outcome.report.figures.reduce((n, f) => n + f.checks.length, 0));
    for (const figure of FIGURES) expect(markdown).toContain(`## ${figure.id}. ${figure.title}`);
  });
});
