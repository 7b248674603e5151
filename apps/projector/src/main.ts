import '../../register-paths';
import { bootstrap, exitOnStartupFailure } from '@app/platform';

// The projection worker alone: the same platform with RUNTIME_ROLE=projector.
bootstrap(process.env, { role: 'projector' }).catch(exitOnStartupFailure);
