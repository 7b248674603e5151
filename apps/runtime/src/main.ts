import '../../register-paths';
import { bootstrap, exitOnStartupFailure } from '@app/platform';
import { ApiModule } from './api.module';

// `npm start`: the all-in-one process (RUNTIME_ROLE=all unless set).
bootstrap(process.env, { api: [ApiModule] }).catch(exitOnStartupFailure);
