import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';

/** The collections of this process during a stretch: the pauses (ms) of the minor and major ones. */
export interface Collections {
  minor: number[];
  major: number[];
}

/** Records the collections from now until `stop()`. */
export function collectionsDuring(): { stop(): Collections } {
  const pauses: Collections = { minor: [], major: [] };
  const record = (entries: PerformanceEntry[]) => {
    for (const entry of entries) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) pauses.major.push(entry.duration);
      else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) pauses.minor.push(entry.duration);
    }
  };
  const observer = new PerformanceObserver((list) => record(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      // Entries are delivered asynchronously: take the ones still buffered.
      record(observer.takeRecords());
      observer.disconnect();
      return pauses;
    },
  };
}

/** `10 minor (max 3.4 ms, sum 24), 1 major (max 72.4 ms, sum 72)`. */
export function describeCollections({ minor, major }: Collections): string {
  const one = (name: string, list: number[]) =>
    `${list.length} ${name}${list.length ? ` (max ${Math.max(...list).toFixed(1)} ms, sum ${list.reduce((a, b) => a + b, 0).toFixed(0)})` : ''}`;
  return `${one('minor', minor)}, ${one('major', major)}`;
}
