import { promises as fs, unwatchFile, watchFile, type Stats } from 'node:fs';
import type { Logger } from '@app/core';
import { ApiTokensError, apiTokenWarnings, type ApiTokenGrant } from './api-tokens';
import { parseApiTokensFile } from './api-tokens-file';
import type { TokenAuthenticator } from './bearer-token';

/** Reads and checks the tokens file; throws ApiTokensError naming the problem (never a token). */
export async function readApiTokensFile(path: string): Promise<ApiTokenGrant[]> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    throw new ApiTokensError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      'RUNTIME_API_TOKENS_FILE',
    );
  }
  return parseApiTokensFile(text);
}

/** One log line per grant (name, role, agent count), then the warnings: never a token. */
export function logGrants(log: Pick<Logger, 'info' | 'warn'>, grants: readonly ApiTokenGrant[], message: string): void {
  log.info(
    {
      tokens: grants.map((grant) => ({
        name: grant.name,
        role: grant.role ?? (grant.admin ? 'admin' : 'any'),
        admin: grant.admin,
        agents: grant.agents.length,
      })),
    },
    message,
  );
  for (const warning of apiTokenWarnings(grants)) log.warn(warning);
}

export interface TokensFileWatchOptions {
  /** stat polling interval (a poll sees an in-place write and an atomic rename alike). */
  intervalMs?: number;
  /** Also reload on SIGHUP (the process default is to exit: only with a tokens file). */
  sighup?: boolean;
}

/**
 * Keeps the authenticator in step with RUNTIME_API_TOKENS_FILE without a restart: on a change
 * of the file (polled) or SIGHUP it is read again; a good file replaces every grant at once, a
 * bad one is logged as an error and the previous grants stay.
 */
export class ApiTokensFileWatcher {
  private running: Promise<boolean> = Promise.resolve(true);
  private readonly onSighup = () => void this.reload();
  private readonly onChange = (current: Stats, previous: Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.size !== previous.size)
      void this.reload();
  };

  constructor(
    private readonly path: string,
    private readonly authenticator: TokenAuthenticator,
    private readonly log: Pick<Logger, 'info' | 'warn' | 'error'>,
    private readonly options: TokensFileWatchOptions = {},
  ) {}

  start(): void {
    watchFile(this.path, { interval: this.options.intervalMs ?? 1000, persistent: false }, this.onChange);
    if (this.options.sighup !== false) process.on('SIGHUP', this.onSighup);
  }

  /** Read the file again now; true when its grants are in use. Reloads never overlap. */
  reload(): Promise<boolean> {
    this.running = this.running.then(async () => {
      try {
        const grants = await readApiTokensFile(this.path);
        this.authenticator.replace(grants);
        logGrants(this.log, grants, 'API tokens reloaded');
        return true;
      } catch (error) {
        const message = error instanceof ApiTokensError ? error.message : 'RUNTIME_API_TOKENS_FILE: unexpected error';
        this.log.error({ err: { message } }, 'API tokens file refused: the previous tokens stay in use');
        return false;
      }
    });
    return this.running;
  }

  close(): void {
    unwatchFile(this.path, this.onChange);
    process.off('SIGHUP', this.onSighup);
  }
}
