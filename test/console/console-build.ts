import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectNode } from '../support/node-binary';

export const REPO = join(__dirname, '..', '..');
export const CONSOLE_SOURCE = join(REPO, 'console');
export const CONSOLE_BUILD = join(REPO, 'dist', 'console');

function newestMtimeMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtimeMs(join(path, name))), stat.mtimeMs);
}

/** True when dist/console is missing or older than any file of console/. */
export function consoleBuildIsStale(): boolean {
  const index = join(CONSOLE_BUILD, 'index.html');
  return !existsSync(index) || statSync(index).mtimeMs < newestMtimeMs(CONSOLE_SOURCE);
}

/**
 * Builds the console into dist/console (what the runtime serves) unless that build is already
 * newer than its sources: into a folder of its own first, then swapped in by rename, so a
 * concurrent run on the same tree never serves a half-written folder. Returns the build's milliseconds (0: fresh already).
 */
export function ensureConsoleBuilt(): number {
  if (!consoleBuildIsStale()) return 0;
  const started = Date.now();
  const staging = `${CONSOLE_BUILD}.build-${process.pid}`;
  const vite = join(REPO, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    projectNode(),
    [vite, 'build', '--config', join(CONSOLE_SOURCE, 'vite.config.mts'), '--outDir', staging, '--emptyOutDir'],
    {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (result.status !== 0)
    throw new Error(
      `vite build of the console failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  const old = `${CONSOLE_BUILD}.old-${process.pid}`;
  try {
    if (existsSync(CONSOLE_BUILD)) renameSync(CONSOLE_BUILD, old);
    renameSync(staging, CONSOLE_BUILD);
  } catch {
    // Another run swapped its own fresh build in first: keep that one.
  } finally {
    rmSync(old, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
  return Date.now() - started;
}
