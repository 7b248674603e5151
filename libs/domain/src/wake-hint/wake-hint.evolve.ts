import type { AgentState } from '../agent/agent.state';
import type { WakeHintEvent } from './wake-hint.events';

/** coalesced: the newest hint becomes the pending one; triggered: emitted, nothing stays pending; ignored: no change. */
export function evolveWakeHint(state: AgentState, event: WakeHintEvent): AgentState {
  const { data } = event;
  switch (data.disposition) {
    case 'ignored':
      return state;
    case 'coalesced':
      return {
        ...state,
        pending_wake_hint: {
          source: data.source,
          reason: data.reason,
          body: data.body,
          created_at: data.at,
          intent_id: data.intent_id,
        },
      };
    case 'triggered':
      return state.pending_wake_hint === null ? state : { ...state, pending_wake_hint: null };
  }
}
