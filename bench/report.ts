/** The benchmark report: result types, verdicts and the Markdown writer (docs/benchmarks.md). */

export interface Metric {
  value: number;
  unit: string;
}

/** One figure against its baseline (or one reported number when there is no target). */
export interface Check {
  name: string;
  measured: Metric;
  baseline?: Metric & { label: string };
  /** measured / baseline, or the figure's own ratio (e.g. a growth exponent). */
  ratio?: number;
  /** e.g. `≥ 0.5x`; absent: reported, no target. */
  target?: string;
  met?: boolean;
}

export interface DetailTable {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
}

export interface FigureResult {
  id: number;
  title: string;
  /** How the figure was measured, one short paragraph. */
  method: string;
  checks: Check[];
  tables: DetailTable[];
  /** For every missed target: where the time goes and what would fix it. Other remarks too. */
  notes: string[];
  seconds: number;
}

export interface MachineInfo {
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  postgres: string;
  postgresSettings: string;
  embeddedPostgres: boolean;
  commit: string;
  /** The event store the figures measured (TEST_EVENT_STORE, ADR 0043); absent in older reports. */
  eventStore?: string;
}

export interface BenchReport {
  mode: 'full' | 'quick';
  startedAt: string;
  seconds: number;
  machine: MachineInfo;
  figures: FigureResult[];
  /** The `SKIPPED:` lines of figures that needed a store that is not there. */
  skipped?: string[];
}

export function atLeast(ratio: number, min: number): Pick<Check, 'ratio' | 'target' | 'met'> {
  return { ratio, target: `≥ ${min}x`, met: ratio >= min };
}

export function atMost(ratio: number, max: number, unit = 'x'): Pick<Check, 'ratio' | 'target' | 'met'> {
  return { ratio, target: `≤ ${max}${unit}`, met: ratio <= max };
}

/** Three significant digits, thousands separated; integers above 1000 without decimals. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

export const metric = (m: Metric | undefined): string => (m ? `${num(m.value)} ${m.unit}`.trim() : '—');

const verdict = (check: Check): string => (check.met === undefined ? 'reported' : check.met ? 'met' : '**missed**');

const cell = (value: string | number): string => (typeof value === 'number' ? num(value) : value).replace(/\|/g, '\\|');

function table(columns: string[], rows: Array<Array<string | number>>): string[] {
  return [
    `| ${columns.join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
}

export function missedChecks(report: BenchReport): Array<{ figure: FigureResult; check: Check }> {
  return report.figures.flatMap((figure) =>
    figure.checks.filter((check) => check.met === false).map((check) => ({ figure, check })),
  );
}

export function summaryRows(report: BenchReport): string[][] {
  return report.figures.flatMap((figure) =>
    figure.checks.map((check) => [
      String(figure.id),
      check.name,
      metric(check.measured),
      check.baseline ? `${metric(check.baseline)} (${check.baseline.label})` : '—',
      check.ratio === undefined ? '—' : `${num(check.ratio)}x`,
      check.target ?? '—',
      verdict(check),
    ]),
  );
}

export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const lines: string[] = [
    '# Benchmarks',
    '',
    report.mode === 'full'
      ? 'The latest full run of `npm run bench` (every figure with its baseline, in one run, on one Postgres). ' +
        'Regenerate it with `npm run bench`; `npm run bench -- --quick` is a smoke run of the same code with tiny counts ' +
        '(its numbers mean nothing). Targets are ratios against the baseline measured in the same run.'
      : 'A **quick** smoke run (`npm run bench -- --quick`): tiny counts, the numbers mean nothing; only the full run is a measurement.',
    '',
    ...table(
      ['', ''],
      [
        ['mode', `${report.mode}, ${num(report.seconds)} s in total, started ${report.startedAt}`],
        ['commit', m.commit],
        ['machine', `${m.cores} cores (${m.cpu}), ${num(m.memoryGb)} GB RAM`],
        ['Node', m.node],
        [
          'Postgres',
          `${m.postgres} (${m.embeddedPostgres ? 'embedded, started by the run' : 'DATABASE_URL'}; ${m.postgresSettings})`,
        ],
        ...(m.eventStore ? [['event store', m.eventStore]] : []),
      ],
    ),
    ...(report.skipped?.length ? ['', ...report.skipped.map((line) => `- ${line}`)] : []),
    '',
    '## Summary',
    '',
    ...table(['#', 'figure', 'measured', 'baseline', 'ratio', 'target', 'verdict'], summaryRows(report)),
    '',
  ];
  const missed = missedChecks(report);
  lines.push(
    missed.length === 0
      ? 'Every target was met.'
      : `${missed.length} target(s) missed: each figure's notes say where the time goes and what would fix it.`,
    '',
  );
  for (const figure of report.figures) {
    lines.push(`## ${figure.id}. ${figure.title}`, '', figure.method, '', `(${num(figure.seconds)} s)`, '');
    for (const detail of figure.tables)
      lines.push(`**${detail.title}**`, '', ...table(detail.columns, detail.rows), '');
    if (figure.notes.length) {
      lines.push('Notes:', '');
      for (const note of figure.notes) lines.push(`- ${note}`);
      lines.push('');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The summary as a console table. */
export function renderConsole(report: BenchReport): string {
  const rows = [
    ['#', 'figure', 'measured', 'baseline', 'ratio', 'target', 'verdict'],
    ...summaryRows(report).map((r) => r.map((c) => c.replace(/\*/g, ''))),
  ];
  const widths = rows[0].map((_, i) => Math.min(60, Math.max(...rows.map((r) => r[i].length))));
  return rows.map((r) => r.map((c, i) => c.slice(0, 60).padEnd(widths[i])).join('  ')).join('\n');
}
