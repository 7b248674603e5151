import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { LOGGER, type Logger } from '@app/core';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';
import { REQUEST_AUTHORIZER, type RequestAuthorizer } from './request-authorizer';
import { ensureAdminToken } from './admin-token';
import { TokenAuthenticator } from './bearer-token';
import { TokenRequestAuthorizer } from './token-request-authorizer';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { PRIVATE_CHILDREN, PrivateChildren } from './private-children';
import { storeSpawnLookup } from './spawn-lookup';
import { ApiTokensFileWatcher, logGrants, readApiTokensFile } from './api-tokens-reload';

/** The process's token set: replaced in place when RUNTIME_API_TOKENS_FILE is reloaded. */
export const TOKEN_AUTHENTICATOR = Symbol('TOKEN_AUTHENTICATOR');

/** RUNTIME_API_TOKENS, RUNTIME_API_TOKENS_FILE, or the generated admin token when both are unset. */
export const tokenAuthenticatorProvider: Provider = {
  provide: TOKEN_AUTHENTICATOR,
  inject: [APPLICATION_SETTINGS, LOGGER],
  useFactory: async (config: ApplicationSettings, logger: Logger): Promise<TokenAuthenticator> => {
    const log = logger.child({ component: 'auth' });
    const grants = config.apiTokensFile
      ? await readApiTokensFile(config.apiTokensFile)
      : (config.apiTokens ?? [await ensureAdminToken(config.dataDir, log)]);
    logGrants(log, grants, 'API tokens loaded');
    return new TokenAuthenticator(grants);
  },
};

/** One per app (a factory, not a module-level value: two apps in one process keep their own). */
export const privateChildrenProvider: Provider = { provide: PRIVATE_CHILDREN, useFactory: () => new PrivateChildren() };

/** With the store (every runtime process has one), a miss is resolved through it (ADR 0031). */
export const requestAuthorizerProvider: Provider = {
  provide: REQUEST_AUTHORIZER,
  inject: [TOKEN_AUTHENTICATOR, PRIVATE_CHILDREN, { token: EVENT_STORE, optional: true }],
  useFactory: (authenticator: TokenAuthenticator, children: PrivateChildren, store?: EventStore): RequestAuthorizer => {
    const lookup = store ? storeSpawnLookup(store) : undefined;
    return new TokenRequestAuthorizer(
      authenticator,
      (agentId) => children.ancestorsOf(agentId),
      lookup && ((agentId) => children.learn(agentId, lookup)),
    );
  },
};

/** Watches RUNTIME_API_TOKENS_FILE (and listens for SIGHUP) while the app runs; nothing without a file. */
@Injectable()
export class ApiTokensReloader implements OnApplicationShutdown {
  readonly watcher: ApiTokensFileWatcher | null;

  constructor(
    @Inject(APPLICATION_SETTINGS) config: ApplicationSettings,
    @Inject(TOKEN_AUTHENTICATOR) authenticator: TokenAuthenticator,
    @Inject(LOGGER) logger: Logger,
  ) {
    const path = config.apiTokensFile;
    this.watcher = path ? new ApiTokensFileWatcher(path, authenticator, logger.child({ component: 'auth' })) : null;
    this.watcher?.start();
  }

  onApplicationShutdown(): void {
    this.watcher?.close();
  }
}
