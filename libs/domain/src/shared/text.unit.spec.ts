import type { AgentCommand } from '../agent/agent.commands';
import { given } from '../testing/decider-spec';
import { at, cmd, created, registered, todo } from '../testing/fixtures';
import { wcmd } from '../testing/waiting-fixtures';
import { assertDisplaySafe, requireTrimmedText } from './text';

// Issue 14, item 9: display spoofing. One rule (TextShape) for every text field of the domain.

const BIDI = {
  'U+202A left-to-right embedding': '\u202a',
  'U+202B right-to-left embedding': '\u202b',
  'U+202C pop directional formatting': '\u202c',
  'U+202D left-to-right override': '\u202d',
  'U+202E right-to-left override': '\u202e',
  'U+2066 left-to-right isolate': '\u2066',
  'U+2067 right-to-left isolate': '\u2067',
  'U+2068 first strong isolate': '\u2068',
  'U+2069 pop directional isolate': '\u2069',
  'U+200E left-to-right mark': '\u200e',
  'U+200F right-to-left mark': '\u200f',
  'U+061C arabic letter mark': '\u061c',
};
const CONTROLS = {
  'U+0000 NUL': '\u0000',
  'U+0001': '\u0001',
  'U+0007 bell': '\u0007',
  'U+0008 backspace': '\b',
  'U+000B vertical tab': '\v',
  'U+000C form feed': '\f',
  'U+000D carriage return': '\r',
  'U+001B escape': '\u001b',
  'U+007F delete': '\u007f',
  'U+0085 next line (C1)': '\u0085',
  'U+009B CSI (C1)': '\u009b',
};
const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('given a one-line text (names, labels, kinds, todos)', () => {
  it.each(Object.entries({ ...BIDI, ...CONTROLS, 'U+000A newline': '\n', 'U+0009 tab': '\t' }))(
    'when it holds %s inside, then it is refused naming the field and the character',
    (_name, char) => {
      const rule = Object.values(BIDI).includes(char) ? 'bidi_control' : 'control_character';
      expect(() => requireTrimmedText(`a${char}b`, 'source', { min: 1, max: 50 })).toThrow(
        expect.objectContaining({
          code: 'validation_failed',
          details: expect.objectContaining({ field: 'source', rule, code_point: codePoint(char) }),
        }),
      );
    },
  );

  it('when it holds letters of every script, emoji and joiners, then it is accepted unchanged', () => {
    const text = 'Grüße 中文 עברית العربية 👨‍👩‍👧 e\u0301 zero\u200bwidth';
    expect(requireTrimmedText(text, 'source', { min: 1, max: 100 })).toBe(text);
  });

  it('when a newline or tab only surrounds it, then trimming removes them and it is accepted', () => {
    expect(requireTrimmedText('\n\tlabel\n', 'source', { min: 1, max: 50 })).toBe('label');
  });
});

describe('given a multi-line text (objectives, blockers, reasons, summaries)', () => {
  it('when it holds newlines and tabs, then it is accepted', () => {
    expect(requireTrimmedText('step 1\n\tstep 2', 'objective', { min: 1, max: 50, shape: 'lines' })).toBe(
      'step 1\n\tstep 2',
    );
  });

  it.each(Object.entries({ ...BIDI, ...CONTROLS }))('when it holds %s, then it is refused', (_name, char) => {
    expect(() => assertDisplaySafe(`a${char}b`, 'objective', 'lines')).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ field: 'objective', code_point: codePoint(char) }),
      }),
    );
  });
});

describe('given content (message bodies, round text)', () => {
  it('when it holds any character, then it is data and accepted', () => {
    expect(requireTrimmedText('a\u202eb\u0001c\rd', 'body', { min: 1, max: 50, shape: 'content' })).toBe(
      'a\u202eb\u0001c\rd',
    );
  });
});

describe('the commands apply it to their text fields', () => {
  const RLO = 'invoice\u202efdp.exe';
  const agent = [registered(), created('w-1')];
  it.each<[string, AgentCommand, string]>([
    ['an objective', cmd.create('w-2', { objective: RLO }), 'objective'],
    ['a todo', cmd.create('w-2', { todo_list: [todo(RLO)] }), 'todo_list[0].text'],
    ['an updated objective', cmd.update('w-1', { objective: RLO }), 'objective'],
    ['a blocker', cmd.update('w-1', { blocked_by: RLO }), 'blocked_by'],
    ['a task kind', wcmd.createTask('t-1', { kind: RLO }), 'kind'],
    ['a task summary', wcmd.createTask('t-1', { summary: RLO }), 'summary'],
    ['a message origin', wcmd.enqueue('m-1', { origin: RLO }), 'origin'],
    ['a wake hint source', wcmd.wakeHint({ source: RLO }), 'source'],
    ['a wake hint reason', wcmd.wakeHint({ reason: RLO }), 'reason'],
    ['a timer resume text', wcmd.createTimer('t-1', { fire_at: at(90), resume_text: RLO }), 'resume_text'],
    ['a wait reason', wcmd.waitFor('i-1', null, { reason: RLO }), 'reason'],
  ])('%s', (_name, command, field) => {
    given(agent).when(command).thenThrows('validation_failed', { field, rule: 'bidi_control', code_point: 'U+202E' });
  });

  it('a multi-line objective is still accepted', () => {
    given(agent)
      .when(cmd.create('w-2', { objective: 'first\nsecond' }))
      .thenState((after) => expect(after.work_items.get('w-2')!.objective).toBe('first\nsecond'));
  });
});
