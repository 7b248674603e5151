import '../../register-paths';
import { bootstrap, exitOnStartupFailure } from '../../runtime/src/boot';

// The scheduler worker alone: the same platform with RUNTIME_ROLE=scheduler.
bootstrap(process.env, 'scheduler').catch(exitOnStartupFailure);
