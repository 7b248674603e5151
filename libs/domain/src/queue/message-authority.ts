import { validationFailed } from '../shared/domain-error';
import { requireOneOf } from '../shared/validation';
import { type MessageAuthority, type MessageKind, MESSAGE_KINDS, RUNTIME_OWNED_MESSAGE_KINDS } from './message.state';

// The authority of a caller's message (docs/decisions/0022-authority-labels.md): one table from the
// message kind and the caller's role to the authority the runtime records, or `not_allowed`.

/** The role a caller's token has (docs/decisions/0019): the runtime's token roles, named here without the app. */
export type MessageSenderRole = 'host' | 'operator' | 'integration' | 'admin';
export const MESSAGE_SENDER_ROLES: readonly MessageSenderRole[] = ['host', 'operator', 'integration', 'admin'];

/** The kinds a caller may send. `control` is not one: it has no effect yet, so it is refused (400). */
export type SendableMessageKind = 'operator_prompt' | 'internal_followup' | 'webhook_event' | 'channel_event';
export const SENDABLE_MESSAGE_KINDS: readonly SendableMessageKind[] = [
  'operator_prompt',
  'internal_followup',
  'webhook_event',
  'channel_event',
];

export type AuthorityVerdict = MessageAuthority | 'not_allowed';

const NO = 'not_allowed' as const;

/**
 * (kind, role) -> authority. The authority depends on the kind alone; the role decides only whether
 * the caller may send it, so no role can raise what it sends to a higher authority:
 * - `operator_prompt` -> `operator_instruction`: the operator's (and admin's) word;
 * - `internal_followup` -> `runtime_instruction`: the agent host's follow-ups to its own agent;
 * - `webhook_event` -> `integration_signal`: an integration's machine event;
 * - `channel_event` -> `external_evidence`: third-party content an integration relays.
 * Admin (the `*` grant) may send every kind.
 */
export const MESSAGE_AUTHORITY_TABLE: Readonly<
  Record<SendableMessageKind, Readonly<Record<MessageSenderRole, AuthorityVerdict>>>
> = {
  operator_prompt: { host: NO, operator: 'operator_instruction', integration: NO, admin: 'operator_instruction' },
  internal_followup: { host: 'runtime_instruction', operator: NO, integration: NO, admin: 'runtime_instruction' },
  webhook_event: { host: NO, operator: NO, integration: 'integration_signal', admin: 'integration_signal' },
  channel_event: { host: NO, operator: NO, integration: 'external_evidence', admin: 'external_evidence' },
};

/** The table's verdict for one kind and one role. */
export const messageAuthority = (kind: SendableMessageKind, role: MessageSenderRole): AuthorityVerdict =>
  MESSAGE_AUTHORITY_TABLE[kind][role];

/** The roles that may send a kind. */
export const rolesSending = (kind: SendableMessageKind): MessageSenderRole[] =>
  MESSAGE_SENDER_ROLES.filter((role) => messageAuthority(kind, role) !== NO);

/**
 * A kind a caller may send, or `validation_failed` on `kind`: an unknown kind (`invalid_enum`), a
 * runtime-owned one (`runtime_owned_kind`), or `control` (`kind_has_no_effect`).
 */
export function requireSendableKind(value: unknown): SendableMessageKind {
  const kind: MessageKind = requireOneOf(value, 'kind', MESSAGE_KINDS);
  if (RUNTIME_OWNED_MESSAGE_KINDS.includes(kind)) {
    throw validationFailed('kind', 'runtime_owned_kind', { kind, allowed: SENDABLE_MESSAGE_KINDS });
  }
  if (kind === 'control') {
    throw validationFailed('kind', 'kind_has_no_effect', { kind, allowed: SENDABLE_MESSAGE_KINDS });
  }
  return kind as SendableMessageKind;
}

export type CallerMessageAuthority =
  | { allowed: true; kind: SendableMessageKind; authority: MessageAuthority }
  | { allowed: false; kind: SendableMessageKind; accepted_roles: MessageSenderRole[] };

/**
 * A caller's message: the kind first (400 as requireSendableKind says), then the table for the
 * caller's roles (one for a named grant; an old-form grant holds every agent role): the authority
 * of the first role allowed to send it (the same for every role: it is the kind's), or not allowed.
 */
export function callerMessageAuthority(kind: unknown, roles: readonly MessageSenderRole[]): CallerMessageAuthority {
  const sendable = requireSendableKind(kind);
  for (const role of roles) {
    const verdict = messageAuthority(sendable, role);
    if (verdict !== NO) return { allowed: true, kind: sendable, authority: verdict };
  }
  return { allowed: false, kind: sendable, accepted_roles: rolesSending(sendable) };
}

/** How a host presents a message to the model. */
export type RenderAs = 'instruction' | 'evidence';

/**
 * Only an operator's word is an instruction. `runtime_instruction` is evidence too: the agent's own
 * follow-ups can carry what it read (an injected webhook would otherwise turn into an instruction
 * one hop later), and task results and timer ticks carry what an executor or a past turn wrote.
 */
export const RENDER_AS_BY_AUTHORITY: Readonly<Record<MessageAuthority, RenderAs>> = {
  operator_instruction: 'instruction',
  runtime_instruction: 'evidence',
  integration_signal: 'evidence',
  external_evidence: 'evidence',
};

export const renderAs = (authority: MessageAuthority): RenderAs => RENDER_AS_BY_AUTHORITY[authority];
