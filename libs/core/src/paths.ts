import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository root (the directory holding package.json and tsconfig.json), found by
 * walking up from this file: the same answer from the sources and from `dist/`, so data
 * files that tsc does not copy (SQL migrations, .proto files) resolve in both.
 */
export function repoRoot(start: string = __dirname): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'tsconfig.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${start}`);
    dir = parent;
  }
  return dir;
}

/** An absolute path inside the repository, e.g. `fromRepoRoot('libs/read-models/migrations')`. */
export function fromRepoRoot(...segments: string[]): string {
  return join(repoRoot(), ...segments);
}
