import { given } from '../testing/decider-spec';
import { AGENT, registered } from '../testing/fixtures';
import { wcmd } from '../testing/waiting-fixtures';
import { isDomainError } from '../shared/domain-error';
import {
  callerMessageAuthority,
  MESSAGE_SENDER_ROLES,
  type MessageSenderRole,
  renderAs,
  requireSendableKind,
} from './message-authority';
import { MESSAGE_AUTHORITIES, MESSAGE_KINDS, type MessageKind } from './message.state';

// docs/decisions/0022-authority-labels.md, written out by hand: every kind x role.
// A string is the authority recorded; `403` not allowed (the app answers 403 forbidden);
// `400 <rule>` refused as validation_failed on `kind`, whatever the role.
const EXPECTED: Record<MessageKind, Record<MessageSenderRole, string>> = {
  operator_prompt: { host: '403', operator: 'operator_instruction', integration: '403', admin: 'operator_instruction' },
  internal_followup: { host: 'runtime_instruction', operator: '403', integration: '403', admin: 'runtime_instruction' },
  webhook_event: { host: '403', operator: '403', integration: 'integration_signal', admin: 'integration_signal' },
  channel_event: { host: '403', operator: '403', integration: 'external_evidence', admin: 'external_evidence' },
  control: {
    host: '400 kind_has_no_effect',
    operator: '400 kind_has_no_effect',
    integration: '400 kind_has_no_effect',
    admin: '400 kind_has_no_effect',
  },
  system_tick: {
    host: '400 runtime_owned_kind',
    operator: '400 runtime_owned_kind',
    integration: '400 runtime_owned_kind',
    admin: '400 runtime_owned_kind',
  },
  timer_tick: {
    host: '400 runtime_owned_kind',
    operator: '400 runtime_owned_kind',
    integration: '400 runtime_owned_kind',
    admin: '400 runtime_owned_kind',
  },
  task_result: {
    host: '400 runtime_owned_kind',
    operator: '400 runtime_owned_kind',
    integration: '400 runtime_owned_kind',
    admin: '400 runtime_owned_kind',
  },
  callback_event: {
    host: '400 runtime_owned_kind',
    operator: '400 runtime_owned_kind',
    integration: '400 runtime_owned_kind',
    admin: '400 runtime_owned_kind',
  },
};

/** What the table says for one kind sent with one role, in the notation of EXPECTED. */
function verdictOf(kind: MessageKind, role: MessageSenderRole): string {
  try {
    const verdict = callerMessageAuthority(kind, [role]);
    return verdict.allowed ? verdict.authority : '403';
  } catch (error) {
    if (isDomainError(error) && error.code === 'validation_failed' && error.details.field === 'kind')
      return `400 ${String(error.details.rule)}`;
    throw error;
  }
}

const cases = MESSAGE_KINDS.flatMap((kind) => MESSAGE_SENDER_ROLES.map((role) => [kind, role] as const));

describe('the authority table (issue 15 item 9): given a caller of a role, when it sends a kind', () => {
  it('covers every kind and every role', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...MESSAGE_KINDS].sort());
    expect(cases).toHaveLength(MESSAGE_KINDS.length * 4);
  });

  it.each(cases)('%s sent by %s: as the table says', (kind, role) => {
    expect(verdictOf(kind, role)).toBe(EXPECTED[kind][role]);
  });

  it.each(cases.filter(([kind, role]) => !EXPECTED[kind][role].match(/^40/)))(
    'given a registered agent, when %s is sent by %s, then it is queued with the authority of the table',
    (kind, role) => {
      const verdict = callerMessageAuthority(kind, [role]);
      if (!verdict.allowed) throw new Error('allowed by the table');
      given([registered()])
        .when(wcmd.enqueue('m-1', { kind, authority: verdict.authority }))
        .thenState((after, events) => {
          expect(events).toEqual([
            expect.objectContaining({
              type: 'MessageQueued',
              data: expect.objectContaining({ agent_id: AGENT, kind }),
            }),
          ]);
          expect(after.messages.get('m-1')?.authority).toBe(EXPECTED[kind][role]);
        });
    },
  );

  it("gives an old-form grant (every agent role) the kind's authority for every kind a caller may send", () => {
    const every: MessageSenderRole[] = ['host', 'operator', 'integration'];
    expect(
      ['operator_prompt', 'internal_followup', 'webhook_event', 'channel_event'].map((kind) =>
        callerMessageAuthority(kind, every),
      ),
    ).toEqual([
      { allowed: true, kind: 'operator_prompt', authority: 'operator_instruction' },
      { allowed: true, kind: 'internal_followup', authority: 'runtime_instruction' },
      { allowed: true, kind: 'webhook_event', authority: 'integration_signal' },
      { allowed: true, kind: 'channel_event', authority: 'external_evidence' },
    ]);
  });

  it('names the roles that may send a kind when the caller may not', () => {
    expect(callerMessageAuthority('webhook_event', ['operator'])).toEqual({
      allowed: false,
      kind: 'webhook_event',
      accepted_roles: ['integration', 'admin'],
    });
  });

  it('refuses an unknown kind as an invalid enum on kind', () => {
    expect(() => requireSendableKind('shout')).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: 'kind', rule: 'invalid_enum' }) }),
    );
  });
});

describe('render_as: how a host shows a message (issue 15 item 9)', () => {
  it('shows only operator instructions as instructions; every other authority is evidence', () => {
    expect(Object.fromEntries(MESSAGE_AUTHORITIES.map((a) => [a, renderAs(a)]))).toEqual({
      operator_instruction: 'instruction',
      runtime_instruction: 'evidence',
      integration_signal: 'evidence',
      external_evidence: 'evidence',
    });
  });
});
