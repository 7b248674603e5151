import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = () => void;

let gc: Gc | undefined;

/** The V8 collector, whether or not node was started with --expose-gc. */
export function forceGc(): void {
  if (!gc) {
    const exposed = (globalThis as { gc?: Gc }).gc;
    if (exposed) gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as Gc;
    }
  }
  gc();
}

/** Heap in use after full collections (several: finalizers and weak callbacks free more on later passes). */
export async function settledHeapBytes(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    forceGc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}
