import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'minor' | 'major' }) => void;

let gc: Gc | undefined;

/** The V8 collector, whether or not node was started with --expose-gc. */
export function forceGc(options?: { type: 'minor' | 'major' }): void {
  if (!gc) {
    const exposed = (globalThis as { gc?: Gc }).gc;
    if (exposed) gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as Gc;
    }
  }
  gc(options);
}

/** One scavenge (a collection of the young generation only), as the allocating program would have had. */
export function forceMinorGc(): void {
  forceGc({ type: 'minor' });
}

/** Heap in use after full collections (several: finalizers and weak callbacks free more on later passes). */
export async function settledHeapBytes(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    forceGc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}
