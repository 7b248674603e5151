import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import type { WaitingIntentRecord, WaitingIntentStatus } from '../waiting-intent/waiting-intent.state';
import { isTriggered } from './scheduling';
import { type ListReply, page, parseListParam } from './list';

/** An intent as callers see it: never the token hash (only whether there is a token). */
export type WaitingIntentView = Omit<WaitingIntentRecord, 'callback_token_hash' | 'event_ids'> & {
  triggered: boolean;
  has_callback_token: boolean;
};

export function toWaitingIntentView(intent: WaitingIntentRecord): WaitingIntentView {
  const { callback_token_hash: hash, event_ids: _counted, ...visible } = intent;
  return {
    ...visible,
    last_trigger: visible.last_trigger && { ...visible.last_trigger },
    triggered: isTriggered(intent),
    has_callback_token: hash !== null,
  };
}

/** Oldest first, then id. */
export const compareIntents = (a: WaitingIntentRecord, b: WaitingIntentRecord): number =>
  compareInstants(a.created_at, b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export type WaitingIntentListQuery = { status?: WaitingIntentStatus | 'all'; work_item_id?: string; limit?: number };
export const WAITING_INTENT_LIST_STATUSES: readonly (WaitingIntentStatus | 'all')[] = [
  'all',
  'active',
  'cancelled',
  'resolved',
];

/** GET waiting-intents: newest first (created_at desc, then id), optionally by status and item. */
export function listWaitingIntents(
  state: AgentState,
  query: WaitingIntentListQuery = {},
): ListReply<WaitingIntentView> {
  const status = parseListParam(query.status, 'status', WAITING_INTENT_LIST_STATUSES, 'all');
  const matches = state.waiting_intents
    .values()
    .filter(
      (i) =>
        (status === 'all' || i.status === status) &&
        (query.work_item_id === undefined || i.work_item_id === query.work_item_id),
    )
    .sort((a, b) => compareIntents(b, a));
  return page(matches, query.limit, toWaitingIntentView);
}
