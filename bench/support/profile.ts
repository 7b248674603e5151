import { Session } from 'node:inspector/promises';
import { sep } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface ProfileShare {
  name: string;
  /** Share of the busy (non-idle) samples, 0..1. */
  share: number;
}

export interface ProfileSummary {
  /** Share of all samples in which this process was busy (not idle). */
  busy: number;
  byArea: ProfileShare[];
  byFunction: ProfileShare[];
}

/** Where a script lives: a package, a library or app of this repository, or the runtime. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf(`node_modules${sep}`);
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules'.length + 1).split(sep);
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (path.startsWith('node:')) return 'node (core)';
  const repo = path.match(/(?:^|\/)(libs\/[^/]+|apps\/[^/]+|bench)\//);
  return repo ? repo[1] : path;
}

/**
 * A V8 CPU profile of this process while `body` runs, summarised as the share of busy samples
 * per area (package or library) and per function (self time).
 */
export async function profileWhile<T>(body: () => Promise<T>): Promise<{ result: T; summary: ProfileSummary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const result = await body();
    const { profile } = await session.post('Profiler.stop');
    return { result, summary: summarise(profile.nodes as ProfileNode[]) };
  } finally {
    session.disconnect();
  }
}

function summarise(nodes: ProfileNode[]): ProfileSummary {
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let idle = 0;
  let total = 0;
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += hits;
      continue;
    }
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + hits);
    const name = `${functionName || '(anonymous)'} (${area}${url ? `:${lineNumber + 1}` : ''})`;
    functions.set(name, (functions.get(name) ?? 0) + hits);
  }
  const busy = total - idle;
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, hits]) => ({ name, share: busy ? hits / busy : 0 }));
  return { busy: total ? busy / total : 0, byArea: top(areas, 8), byFunction: top(functions, 8) };
}

export function describeProfile(summary: ProfileSummary, subject = 'the server process', areas = 6): string {
  const pct = (share: number) => `${(share * 100).toFixed(0)}%`;
  return (
    `CPU profile of ${subject} (busy ${pct(summary.busy)} of the time): ` +
    summary.byArea
      .slice(0, areas)
      .map((a) => `${a.name} ${pct(a.share)}`)
      .join(', ') +
    `; top functions: ${summary.byFunction
      .slice(0, 4)
      .map((f) => `${f.name} ${pct(f.share)}`)
      .join(', ')}`
  );
}
