import { type StrandedEntry, STRANDED_KINDS, type StrandedSubject } from '@app/domain';
import { dateTime, int, listOf, nullable, oneOfStrings, ref, shapeOf, str, stringArray } from './schema';

// Stranded work (issue 19 item 4, docs/decisions/0036): one entry per stranded condition.

const subject = shapeOf<StrandedSubject>()(
  {
    work_item_id: nullable(str()),
    intent_id: nullable(str()),
    task_id: nullable(str()),
    timer_id: nullable(str()),
    turn_id: nullable(str()),
    message_id: nullable(str()),
    delegation_id: nullable(str()),
  },
  { description: 'The records the condition is about; null where it does not apply.' },
);

const entry = shapeOf<StrandedEntry>()(
  {
    agent_id: str(),
    kind: oneOfStrings(STRANDED_KINDS, 'the condition (docs/domain-contract.md §12)'),
    subject: ref('StrandedSubject'),
    evidence: stringArray('`name:value` lines: the records that make the condition hold'),
    since: dateTime('from when the condition holds'),
    stranded_at: dateTime("since + the kind's delay (a setting): from when it counts as stranded"),
    age_ms: int('now - stranded_at, on the server clock', { minimum: 0 }),
  },
  { description: 'One stranded condition of one agent.' },
);

export const STRANDED_SCHEMAS = {
  StrandedSubject: subject,
  StrandedEntry: entry,
  StrandedList: listOf(ref('StrandedEntry'), 'oldest stranded first, then agent and kind'),
};
