import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ApiTokenGrant } from './api-tokens';
import type { Logger } from '@app/core';

export const ADMIN_TOKEN_FILE = 'admin-token';

/**
 * When RUNTIME_API_TOKENS is unset: the admin token in `<dataDir>/admin-token`, created
 * once (mode 0600, exclusive create so concurrent starts agree) and reused afterwards.
 * Logs the file path, never the token.
 */
export async function ensureAdminToken(dataDir: string, logger: Pick<Logger, 'info' | 'warn'>): Promise<ApiTokenGrant> {
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  await fs.mkdir(dataDir, { recursive: true });
  const created = await createOnce(path, `${randomBytes(32).toString('base64url')}\n`);
  const stat = await fs.stat(path);
  if ((stat.mode & 0o077) !== 0) {
    await fs.chmod(path, 0o600);
    logger.warn({ path }, 'admin token file was readable by others: mode reset to 0600');
  }
  const token = (await fs.readFile(path, 'utf8')).trim();
  if (!/^[^\s=;|]{16,}$/.test(token)) {
    throw new Error(
      `${path} does not hold a usable token (16+ characters, no whitespace): delete it to generate a new one`,
    );
  }
  logger.info(
    { path, created },
    created
      ? 'generated an admin API token (RUNTIME_API_TOKENS is unset)'
      : 'using the admin API token file (RUNTIME_API_TOKENS is unset)',
  );
  return { token, name: 'admin-token', agents: [], admin: true };
}

/** Write a private temp file, then hard-link it into place: atomic, and loses to an existing file. */
async function createOnce(path: string, content: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, content, { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await fs.unlink(temp).catch(() => undefined);
  }
}
