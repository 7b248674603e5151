import { CLOSURE_SCHEMAS } from './closure.schemas';
import { COMMAND_SCHEMAS } from './commands.schemas';
import { DELEGATION_SCHEMAS } from './delegation.schemas';
import { ERROR_SCHEMAS } from './errors.schemas';
import { READ_SCHEMAS } from './reads.schemas';
import { STATE_SCHEMAS } from './state.schemas';
import { STRANDED_SCHEMAS } from './stranded.schemas';
import { TURN_SCHEMAS } from './turns.schemas';
import { VIEW_SCHEMAS } from './views.schemas';
import { WHY_SCHEMAS } from './why.schemas';

/** Every reply schema of the HTTP API, by component name (`#/components/schemas/<name>`). */
export const REPLY_SCHEMAS = {
  ...VIEW_SCHEMAS,
  ...TURN_SCHEMAS,
  ...STATE_SCHEMAS,
  ...CLOSURE_SCHEMAS,
  ...COMMAND_SCHEMAS,
  ...READ_SCHEMAS,
  ...DELEGATION_SCHEMAS,
  ...STRANDED_SCHEMAS,
  ...WHY_SCHEMAS,
  ...ERROR_SCHEMAS,
};

export type ReplySchemaName = keyof typeof REPLY_SCHEMAS;
