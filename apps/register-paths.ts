/**
 * Resolves the `@app/*` library aliases of tsconfig.json at run time, from the compiled
 * tree (`dist/`) or from the sources under ts-node. Every app's main imports this first.
 * (Relative import on purpose: the aliases do not resolve before this runs.)
 */
import { join } from 'node:path';
import { loadConfig, register } from 'tsconfig-paths';
import { repoRoot } from '../libs/core/src/paths';

const root = repoRoot(__dirname);
const config = loadConfig(root);
if (config.resultType === 'failed') throw new Error(`cannot read tsconfig.json: ${config.message}`);
const compiled = __filename.endsWith('.js');
register({ baseUrl: compiled ? join(root, 'dist') : root, paths: config.paths, addMatchAll: false });
