import type { Provider } from '@nestjs/common';
import { LOGGER, type Logger } from '@app/core';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';
import { REQUEST_AUTHORIZER, type RequestAuthorizer } from './request-authorizer';
import { ensureAdminToken } from './admin-token';
import { TokenAuthenticator } from './bearer-token';
import { TokenRequestAuthorizer } from './token-request-authorizer';

/** RUNTIME_API_TOKENS, or the generated admin token when it is unset. */
export const requestAuthorizerProvider: Provider = {
  provide: REQUEST_AUTHORIZER,
  inject: [APPLICATION_SETTINGS, LOGGER],
  useFactory: async (config: ApplicationSettings, logger: Logger): Promise<RequestAuthorizer> => {
    const log = logger.child({ component: 'auth' });
    const grants = config.apiTokens ?? [await ensureAdminToken(config.dataDir, log)];
    log.info(
      { tokens: grants.map((grant) => ({ name: grant.name, admin: grant.admin, agents: grant.agents.length })) },
      'API tokens loaded',
    );
    return new TokenRequestAuthorizer(new TokenAuthenticator(grants));
  },
};
