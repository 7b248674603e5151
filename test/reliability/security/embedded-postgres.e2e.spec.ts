import { type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  type FSWatcher,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { describeIf } from '../../support/skip';
import { OutputTail, spawnTs, tempDataDir } from '../support/service-process';

/**
 * Issue 14 items 6 and 8, on a real embedded Postgres started in a child process (one start is
 * a few seconds): the password is random per cluster, kept 0600 beside it and never written to
 * the OS temp dir (watched while initdb runs, also when initdb fails); a cluster from before
 * keeps working and leaves the old password; as root, a data directory in a 0700 directory just
 * works (the server runs as `postgres`, from binaries and a cluster it can reach).
 */
const CHILD = 'test/reliability/security/support/embedded-postgres-child.ts';
const MINUTE = 60_000;

interface Started {
  child: ChildProcess;
  tail: OutputTail;
  url: string;
  clusterDir: string;
  stop(): Promise<void>;
}

/** A directory standing for the OS temp dir of the child, recording every password file created in it (Node's own compile cache may come and go). */
function watchedTmpdir(): { dir: string; seen: string[]; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pg-tmpdir-'));
  chmodSync(dir, 0o1777); // today's package writes initdb's password file here, which `postgres` must read
  const seen: string[] = [];
  const watcher: FSWatcher = watch(dir, (_event, name) => {
    if (name && /password/i.test(String(name))) seen.push(String(name));
  });
  return { dir, seen, close: () => watcher.close() };
}

async function run(env: Record<string, string>): Promise<{ child: ChildProcess; tail: OutputTail; line: string }> {
  const child = spawnTs(CHILD, env, { stdin: 'pipe' });
  const tail = new OutputTail();
  tail.attach(child);
  const exited = new Promise<string>((resolve) => child.on('exit', (code) => resolve(`EXIT ${code}`)));
  const line = await Promise.race([tail.wait((text) => /^(READY|FAILED) /.test(text)), exited]);
  return { child, tail, line };
}

async function start(env: Record<string, string>): Promise<Started> {
  const { child, tail, line } = await run(env);
  if (!line.startsWith('READY ')) throw new Error(`the embedded Postgres did not start:\n${tail.text()}`);
  const { url, clusterDir } = JSON.parse(line.slice('READY '.length)) as { url: string; clusterDir: string };
  const stop = async () => {
    const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    child.stdin?.end();
    await done;
  };
  return { child, tail, url, clusterDir, stop };
}

/** The error code of a login with this password, or 'ok'. */
async function login(url: string, password: string): Promise<string> {
  const target = new URL(url);
  target.password = password;
  const client = new Client({ connectionString: target.toString() });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const passwordOf = (url: string) => decodeURIComponent(new URL(url).password);
const leftovers = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('.initdb-'));

describe('the embedded Postgres: its password and its directory', () => {
  jest.setTimeout(5 * MINUTE); // a start is 5-10 s on a quiet machine, over 40 s on a loaded one
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('its password', () => {
    let base: string;
    beforeAll(() => {
      base = tempDataDir('pg-secret-');
      dirs.push(base);
    });

    it('is random on the first start, kept 0600 beside the cluster, never in the temp dir, and reused by the next start', async () => {
      const temp = watchedTmpdir();
      dirs.push(temp.dir);
      const env = { PG_DATA_DIR: join(base, 'pg'), TMPDIR: temp.dir };
      let pg = await start(env);
      const file = join(base, 'pg.password');
      try {
        expect(existsSync(file)).toBe(true);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const password = readFileSync(file, 'utf8').trim();
        expect(password).toMatch(/^[0-9a-f]{64}$/);
        expect(passwordOf(pg.url)).toBe(password);
        expect(await login(pg.url, password)).toBe('ok');
        expect(await login(pg.url, 'runtime')).toBe('28P01');
      } finally {
        await pg.stop();
      }
      temp.close();
      expect(temp.seen).toEqual([]);
      expect(leftovers(base)).toEqual([]);

      pg = await start(env);
      try {
        expect(passwordOf(pg.url)).toBe(readFileSync(file, 'utf8').trim());
        expect(await login(pg.url, passwordOf(pg.url))).toBe('ok');
      } finally {
        await pg.stop();
      }
    });

    it('moves a cluster from before (password `runtime`, no password file) to a random password', async () => {
      const env = { PG_DATA_DIR: join(base, 'pg') };
      const file = join(base, 'pg.password');
      let pg = await start(env);
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      await client.query(`ALTER ROLE runtime PASSWORD 'runtime'`);
      await client.end();
      await pg.stop();
      rmSync(file);

      pg = await start(env);
      try {
        const password = readFileSync(file, 'utf8').trim();
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(password).toMatch(/^[0-9a-f]{64}$/);
        expect(passwordOf(pg.url)).toBe(password);
        expect(await login(pg.url, password)).toBe('ok');
        expect(await login(pg.url, 'runtime')).toBe('28P01');
        expect(existsSync(`${file}.next`)).toBe(false);
      } finally {
        await pg.stop();
      }
    });

    it('leaves no password file in the temp dir when initdb fails', async () => {
      const failing = tempDataDir('pg-initdb-fails-');
      const temp = watchedTmpdir();
      dirs.push(failing, temp.dir);
      const { child, tail, line } = await run({
        PG_DATA_DIR: join(failing, 'pg'),
        TMPDIR: temp.dir,
        PG_INITDB_FLAGS: '--no-such-initdb-option',
      });
      if (child.exitCode === null) {
        // it started after all: stop it before failing
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.stdin?.end();
        await exited;
      }
      await new Promise((resolve) => setTimeout(resolve, 200)); // let the watcher report late events
      temp.close();
      expect({ line, seen: temp.seen }).toEqual({ line: expect.stringMatching(/^FAILED /), seen: [] });
      expect(tail.text()).toMatch(/no-such-initdb-option/);
      expect(leftovers(failing)).toEqual([]);
      expect(readdirSync(temp.dir).filter((name) => /password/i.test(name))).toEqual([]);
    });
  });

  describeIf(
    process.getuid?.() === 0,
    'a data directory in a 0700 directory (common for root: its home)',
    'needs root (only then does the server run as the postgres user)',
    () => {
      it('just works: the server runs from binaries and a cluster the postgres user can reach', async () => {
        const closed = mkdtempSync(join(tmpdir(), 'pg-closed-'));
        chmodSync(closed, 0o700);
        const reachable = tempDataDir('pg-reachable-');
        chmodSync(reachable, 0o711);
        dirs.push(closed, reachable);
        const dataDir = join(closed, 'data', 'pg');
        const pg = await start({ PG_DATA_DIR: dataDir, PG_REACHABLE_BASE: reachable, PG_RELOCATE_BINARIES: '1' });
        try {
          expect(await login(pg.url, passwordOf(pg.url))).toBe('ok');
          expect(lstatSync(dataDir).isSymbolicLink()).toBe(true);
          expect(pg.clusterDir.startsWith(`${reachable}/pg-`)).toBe(true);
          const pid = readFileSync(join(pg.clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0];
          const binary = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
          expect(binary.startsWith(`${reachable}/postgres-`)).toBe(true);
          expect(statSync(join(closed, 'data', 'pg.password')).mode & 0o777).toBe(0o600);
        } finally {
          await pg.stop();
        }
      });
    },
  );
});
