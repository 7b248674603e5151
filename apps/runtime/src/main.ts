import '../../register-paths';
import { bootstrap, exitOnStartupFailure } from '@app/platform';

// `npm start`: the all-in-one process (RUNTIME_ROLE=all unless set). The API's modules are loaded
// only by a role that serves it (RUNTIME_ROLE=scheduler or projector from this entry does not).
bootstrap(process.env, { api: async () => [(await import('./api.module')).ApiModule] }).catch(exitOnStartupFailure);
