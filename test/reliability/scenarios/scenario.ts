import type { HistoryReport } from '../support/history';

/** What every scenario returns: its history report and a few numbers worth printing. */
export interface ScenarioResult {
  name: string;
  report: HistoryReport;
  notes: Record<string, number | string | boolean>;
}

let ids = 0;
/** Ids unique across runs and processes (agents of one scenario never meet another's). */
export function uniqueIds(prefix: string, count: number): string[] {
  ids += 1;
  const run = `${process.pid.toString(36)}${Date.now().toString(36)}${ids}`;
  return Array.from({ length: count }, (_, index) => `${prefix}-${run}-${index}`);
}

/** A random integer in [min, max]. */
export function between(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}
