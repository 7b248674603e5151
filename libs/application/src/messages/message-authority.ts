import type { MessageAuthority } from '@app/domain';

/** The routes through which a caller (not the runtime itself) puts a message on an agent's queue. */
export type MessageRoute = 'operator';

/**
 * The authority rule (docs/domain-contract.md §1: "set by the runtime from the route and the caller, never by the
 * caller"; a `trust` or `authority` field in a request is an unknown field, 400):
 *
 * - `operator`: `POST /v1/agents/{a}/messages` and gRPC `EnqueueMessage`. Only a bearer token
 *   allowed on that agent (its own token, or admin) reaches it, i.e. the agent's operator, so its
 *   messages are `operator_instruction`, whatever their kind.
 * - Messages the runtime queues itself get theirs in the domain (decision 0004 §3): `task_result`,
 *   `timer_tick`, `system_tick` are `runtime_instruction`; a trigger's `callback_event` (API or
 *   callback capability) is `integration_signal`.
 * - `external_evidence` is kept for a future ingress route carrying third-party content verbatim.
 */
const AUTHORITY_BY_ROUTE: Record<MessageRoute, MessageAuthority> = {
  operator: 'operator_instruction',
};

export function authorityOf(route: MessageRoute): MessageAuthority {
  return AUTHORITY_BY_ROUTE[route];
}
