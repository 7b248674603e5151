import type { AgentState } from '../agent/agent.state';
import type { SchedulerEvent } from './scheduler.events';

export function evolveScheduler(state: AgentState, event: SchedulerEvent): AgentState {
  switch (event.type) {
    case 'SchedulerDecisionRecorded':
      return { ...state, last_decision: { decision: event.data.decision, at: event.data.at } };
    case 'SystemTickEmitted': {
      const { idempotency_key: key, reason, at } = event.data;
      const keys = state.emitted_tick_keys.has(key) ? state.emitted_tick_keys : state.emitted_tick_keys.set(key, at);
      // The wake-hint tick is the pending hint's emission: nothing stays pending.
      const pending = reason === 'wake_hint' ? null : state.pending_wake_hint;
      return { ...state, emitted_tick_keys: keys, pending_wake_hint: pending };
    }
    case 'AgentSlept':
      return state.posture === 'awake_idle' || state.posture === 'awake_running'
        ? { ...state, posture: 'asleep' }
        : state;
  }
}
