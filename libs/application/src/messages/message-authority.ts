import { ApiError } from '@app/core';
import { callerMessageAuthority, type MessageAuthority, type MessageSenderRole } from '@app/domain';
import type { Caller } from '../auth/request-authorizer';
import { AGENT_ROLES } from '../auth/roles';

/**
 * The roles a caller sends a message with: admin for the `*` grant, a named grant's one role, and
 * every agent role for an old-form grant (it has every role on its agents, docs/decisions/0019).
 */
export function senderRolesOf(caller: Caller): readonly MessageSenderRole[] {
  if (caller.admin) return ['admin'];
  return caller.role ? [caller.role] : AGENT_ROLES;
}

/**
 * The authority rule (docs/domain-contract.md §1, docs/decisions/0022-authority-labels.md): a message
 * sent over `POST /v1/agents/{a}/messages` or gRPC `EnqueueMessage` gets its authority from the
 * domain's table by its kind and the caller's role, never from the caller (a `trust` or `authority`
 * field is an unknown field, 400). An unknown, runtime-owned or `control` kind is 400
 * `validation_failed`; a kind the caller's role may not send is 403 `forbidden` (nothing written).
 * Messages the runtime queues itself get theirs in the domain (decision 0004 §3).
 */
export function authorityOf(kind: unknown, caller: Caller): MessageAuthority {
  const verdict = callerMessageAuthority(kind, senderRolesOf(caller));
  if (verdict.allowed) return verdict.authority;
  const role = caller.admin ? 'admin' : (caller.role ?? null);
  throw new ApiError(
    'forbidden',
    `this token's role (${role ?? ''}) may not send a ${verdict.kind} message: it accepts ${verdict.accepted_roles.join(', ')}`,
    { role, kind: verdict.kind, accepted_roles: verdict.accepted_roles },
  );
}
