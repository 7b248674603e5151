import '../../register-paths';
import { bootstrap, exitOnStartupFailure } from '@app/platform';

// The scheduler worker alone: the same platform with RUNTIME_ROLE=scheduler.
bootstrap(process.env, { role: 'scheduler' }).catch(exitOnStartupFailure);
