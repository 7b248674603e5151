import {
  CLOSURE_REASONS,
  CLOSURES,
  type ClosureView,
  type Reminder,
  REMINDER_KINDS,
  RUNTIME_POSTURES,
  TERMINAL_KINDS,
  TODO_STATES,
} from '@app/domain';
import {
  arrayOf,
  dateTime,
  int,
  object,
  oneOfStrings,
  ref,
  type SchemaObject,
  shapeOf,
  str,
  stringArray,
} from './schema';
import { recoverySchema } from './views.schemas';

// Closure, the runtime posture and reminders (issue 17 items 4-5, ADR 0030).

const closure = shapeOf<ClosureView>()(
  {
    closure: oneOfStrings(CLOSURES),
    reason: oneOfStrings(CLOSURE_REASONS, 'the first rule of the precedence that holds'),
    evidence: stringArray('what made the rule hold'),
  },
  { description: 'How the agent work stands (docs/domain-contract.md §2, Closure).' },
);

const reminder = shapeOf<Reminder>()(
  {
    kind: oneOfStrings(REMINDER_KINDS),
    work_item_id: str(),
    todo: object({ text: str(), state: oneOfStrings(TODO_STATES) }),
    detail: str(),
  },
  { optional: ['todo'], description: 'A reminder of what looks stale; the runtime never edits todos itself.' },
);

const terminalFields = {
  turn_id: str(),
  turn_index: int(undefined, { minimum: 0 }),
  terminal_kind: oneOfStrings(TERMINAL_KINDS),
  recovery: recoverySchema(),
  at: dateTime(),
};

const lastTurnTerminal = object(terminalFields, { description: 'The newest turn terminal, once it ended.' });

const runtimeError: SchemaObject = {
  oneOf: [
    object({
      source: oneOfStrings(['dead_letter']),
      projection: str(),
      position: str('the dead letter global position'),
      revision: str('the agent stream revision from which its events are held'),
      event_type: str(),
    }),
    object({ source: oneOfStrings(['turn_terminal']), ...terminalFields }),
  ],
  description: 'A dead letter of this agent in a read model, or the newest turn terminal error.',
};

export const CLOSURE_SCHEMAS = {
  Closure: closure,
  Reminder: reminder,
  LastTurnTerminal: lastTurnTerminal,
  RuntimeError: runtimeError,
} satisfies Record<string, SchemaObject>;

export const runtimePostureSchema = (description?: string) => oneOfStrings(RUNTIME_POSTURES, description);
export const remindersSchema = (description?: string) => arrayOf(ref('Reminder'), description);
