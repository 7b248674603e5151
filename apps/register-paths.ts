/**
 * Resolves the `@app/*` library aliases of tsconfig.json at run time, from the compiled
 * tree (`dist/`) or from the sources under ts-node. Every app's main imports this first.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig, register } from 'tsconfig-paths';

function repoRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'tsconfig.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${start}`);
    dir = parent;
  }
  return dir;
}

const root = repoRoot(__dirname);
const config = loadConfig(root);
if (config.resultType === 'failed') throw new Error(`cannot read tsconfig.json: ${config.message}`);
const compiled = __filename.endsWith('.js');
register({ baseUrl: compiled ? join(root, 'dist') : root, paths: config.paths, addMatchAll: false });
