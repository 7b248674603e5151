import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

/** `node_modules/.bin/node`, where the lockfile brought one for this platform. */
export function lockfileNode(): string | null {
  const bin = join(REPO, 'node_modules', '.bin', 'node');
  return existsSync(bin) ? realpathSync(bin) : null;
}

/**
 * The Node every child process of the tests runs on: the lockfile's where it brought one,
 * else the one running the tests (a platform without a `node-<os>-<cpu>` package).
 */
export function projectNode(): string {
  return lockfileNode() ?? process.execPath;
}

/**
 * The `-r` options of a child node that runs the TypeScript sources: ts-node with swc (transpile
 * only; `npm run typecheck` type-checks) and the tsconfig paths.
 */
export const TS_CHILD_REQUIRES = [
  '-r',
  join(REPO, 'test', 'support', 'swc-register.js'),
  '-r',
  'tsconfig-paths/register',
];
