import '../../register-paths';
import { bootstrap, exitOnStartupFailure } from '../../runtime/src/boot';

// The projection worker alone: the same platform with RUNTIME_ROLE=projector.
bootstrap(process.env, 'projector').catch(exitOnStartupFailure);
