import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eventually } from '@app/event-store/testing';

/**
 * Stops and restarts the embedded Postgres a service owns, from outside the service, the way an
 * operator or a crash would: the server process is signalled, then started again on the same
 * data directory and port with `pg_ctl` (so it is a daemon, not a child of the test).
 */
export interface Postmaster {
  pid: number;
  port: number;
  pgDir: string;
  /** The postgres binary and its arguments, read from /proc (what the service started). */
  argv: string[];
}

export function postmasterOf(pgDir: string): Postmaster {
  const lines = readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((part) => part.length > 0);
  return { pid, port, pgDir, argv };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<void> {
  await eventually(
    `postgres ${pid} to exit (alive)`,
    () => alive(pid),
    (running) => !running,
    { timeoutMs },
  );
}

/**
 * `fast`: SIGINT, sessions are terminated and the server shuts down cleanly. `immediate`: SIGQUIT,
 * the server exits without a checkpoint and replays its WAL on the next start (a crash).
 */
export async function stopPostgres(pgDir: string, mode: 'fast' | 'immediate'): Promise<Postmaster> {
  const postmaster = postmasterOf(pgDir);
  process.kill(postmaster.pid, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
  await waitGone(postmaster.pid, 30_000);
  return postmaster;
}

/** Starts the server again with the same binary, data directory, port and flags; resolves when it accepts connections. */
export async function startPostgres(postmaster: Postmaster): Promise<void> {
  const [binary, ...args] = postmaster.argv;
  const pgCtl = join(dirname(binary), 'pg_ctl');
  if (!existsSync(pgCtl)) throw new Error(`no pg_ctl next to ${binary}`);
  const dataIndex = args.indexOf('-D');
  const options = args
    .filter((_, index) => index !== dataIndex && index !== dataIndex + 1)
    .map(quote)
    .join(' ');
  const owner = process.getuid?.() === 0 ? { uid: idOf('-u'), gid: idOf('-g') } : {};
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      pgCtl,
      [
        'start',
        '-w',
        '-t',
        '60',
        '-D',
        postmaster.pgDir,
        '-l',
        join(postmaster.pgDir, 'restarted-by-test.log'),
        '-o',
        options,
      ],
      {
        ...owner,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl start exited ${code}: ${output}`))));
  });
}

/** Stops whatever server runs in `pgDir` (test clean-up). */
export async function stopIfRunning(pgDir: string): Promise<void> {
  if (!existsSync(join(pgDir, 'postmaster.pid'))) return;
  try {
    const { pid } = postmasterOf(pgDir);
    if (!alive(pid)) return;
    process.kill(pid, 'SIGINT');
    await waitGone(pid, 30_000);
  } catch {
    // nothing running
  }
}

function idOf(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
}

const quote = (arg: string) =>
  arg === '' ? "''" : /^[A-Za-z0-9_./=:-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
