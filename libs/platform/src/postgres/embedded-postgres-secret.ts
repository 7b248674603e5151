import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Client } from 'pg';

/**
 * The embedded cluster's login (see docs/decisions/0018-embedded-postgres-secrets-and-reach.md).
 * The password is random per cluster, kept beside the cluster directory in `<cluster>.password`
 * (e.g. `<RUNTIME_DATA_DIR>/pg.password`), mode 0600, readable by the runtime's user only.
 */
export const EMBEDDED_USER = 'runtime';
/** The password every cluster got before passwords were generated; an old cluster is moved off it on start. */
export const LEGACY_PASSWORD = 'runtime';

export const passwordFileOf = (dataDir: string): string => join(dirname(dataDir), `${basename(dataDir)}.password`);

/** 32 random bytes as hex: safe in a URL and in a SQL string literal. */
export const newPassword = (): string => randomBytes(32).toString('hex');

/** The file's password, or null when there is no file. An empty or malformed file is an error, never ignored. */
export async function readPasswordFile(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const password = text.trim();
  if (!/^[0-9a-f]{16,}$/.test(password)) throw new Error(`${file} does not hold a generated password`);
  return password;
}

/** Written 0600 under a temporary name, then renamed: never readable by others, never half-written. */
export async function writePasswordFile(file: string, password: string): Promise<void> {
  await fs.mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, `${password}\n`, { mode: 0o600 });
  await fs.chmod(temp, 0o600); // an existing temp file keeps its mode in writeFile
  await fs.rename(temp, file);
}

/**
 * The password the cluster is started with. A new cluster gets a fresh one, written before
 * initdb runs (an interrupted initdb leaves the file, which the next attempt reuses). A
 * cluster without a file predates generated passwords: it still has LEGACY_PASSWORD until
 * `rotateLegacyPassword` moves it off.
 */
export async function clusterPassword(dataDir: string, fresh: boolean): Promise<{ password: string; legacy: boolean }> {
  const file = passwordFileOf(dataDir);
  const existing = await readPasswordFile(file);
  if (existing) return { password: existing, legacy: false };
  if (!fresh) return { password: LEGACY_PASSWORD, legacy: true };
  const password = newPassword();
  await writePasswordFile(file, password);
  return { password, legacy: false };
}

/**
 * Moves a running cluster from LEGACY_PASSWORD to a random one: the new password is first
 * written to `<file>.next`, then set with ALTER ROLE, then `.next` is renamed to the file. A
 * rotation interrupted after ALTER ROLE is finished on the next start (the `.next` password works).
 */
export async function rotateLegacyPassword(dataDir: string, port: number): Promise<string> {
  const file = passwordFileOf(dataDir);
  const pendingFile = `${file}.next`;
  const pending = await readPasswordFile(pendingFile);
  let client = await login(port, LEGACY_PASSWORD);
  let next = pending;
  if (!client && pending) {
    client = await login(port, pending);
    if (client) {
      await client.end();
      await fs.rename(pendingFile, file);
      return pending;
    }
  }
  if (!client) {
    throw new Error(
      `the embedded Postgres in ${dataDir} has no password file (${file}) and refuses the former default password: ` +
        `restore ${file}, or start from an empty data directory`,
    );
  }
  try {
    if (!next) {
      next = newPassword();
      await writePasswordFile(pendingFile, next);
    }
    await client.query(`ALTER ROLE "${EMBEDDED_USER}" PASSWORD '${next}'`);
  } finally {
    await client.end();
  }
  await fs.rename(pendingFile, file);
  return next;
}

/** A connected client, or null when the server refuses the password. */
async function login(port: number, password: string): Promise<Client | null> {
  const client = new Client({ host: '127.0.0.1', port, user: EMBEDDED_USER, password, database: 'postgres' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    if ((error as { code?: string }).code === '28P01') return null; // invalid_password
    throw error;
  }
}

/** Creates the database when missing (connected as the cluster's user). */
export async function ensureDatabase(port: number, password: string, name: string): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: EMBEDDED_USER, password, database: 'postgres' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if ((result.rowCount ?? 0) === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
