import { readFileSync } from 'node:fs';
import { fromRepoRoot } from '@app/core';

/** `npm start` read once: `node <flags> <entry>` in package.json. */
let start: { flags: string[]; entry: string } | undefined;

/**
 * The runtime's start command as deployed: `npm start`'s flags and entry, which the Dockerfile's CMD
 * repeats (docs/decisions/0057). A bench that starts the runtime as its own process passes the
 * flags; `npm run bench`, which hosts the runtime in its own process, runs with them
 * (test/deploy/node-flags.spec.ts checks all three agree).
 */
export function runtimeStartCommand(): { flags: string[]; entry: string } {
  if (start) return start;
  const manifest = JSON.parse(readFileSync(fromRepoRoot('package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = manifest.scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.length < 2)
    throw new Error(`npm start is not "node <flags> <entry>": ${manifest.scripts.start}`);
  start = { flags: words.slice(1, -1), entry: words[words.length - 1] };
  return start;
}

/** The Node flags the runtime is deployed with (those of `npm start`). */
export const runtimeNodeFlags = (): string[] => [...runtimeStartCommand().flags];
