import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Node flags the runtime is deployed with: those of `npm start` (`node <flags> <entry>` in
 * package.json), which the Dockerfile's CMD repeats (docs/decisions/0057). A bench that starts the
 * runtime as its own process passes them; `npm run bench`, which hosts the runtime in its own
 * process, runs with them (test/deploy/node-flags.spec.ts checks all three agree).
 */
export function runtimeNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = manifest.scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.length < 2)
    throw new Error(`npm start is not "node <flags> <entry>": ${manifest.scripts.start}`);
  return words.slice(1, -1);
}
