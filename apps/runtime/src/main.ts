import '../../register-paths';
import { bootstrap, exitOnStartupFailure } from './boot';

// `npm start`: the all-in-one process (RUNTIME_ROLE=all unless set).
bootstrap(process.env).catch(exitOnStartupFailure);
