import { evolveFocus } from '../focus/focus.evolve';
import { evolveWorkItem } from '../work-item/work-item.evolve';
import { isWorkItemEvent } from '../work-item/work-item.events';
import { isFocusEvent } from '../focus/focus.events';
import { type AgentLifecycleEvent, type AnyEvent, isAgentLifecycleEvent } from './agent.events';
import { type AgentState, initialAgentState } from './agent.state';

function evolveAgentLifecycle(state: AgentState, event: AgentLifecycleEvent): AgentState {
  switch (event.type) {
    case 'AgentRegistered':
      return { ...state, agent_id: event.data.agent_id, registered_at: event.data.at, posture: 'awake_idle' };
  }
}

/** Routes a known event to its slice; unknown types leave the state as it is. */
function route(state: AgentState, event: AnyEvent): AgentState {
  if (isAgentLifecycleEvent(event)) return evolveAgentLifecycle(state, event);
  if (isWorkItemEvent(event)) return evolveWorkItem(state, event);
  if (isFocusEvent(event)) return evolveFocus(state, event);
  return state;
}

/** Folds one stored event. Every event, known or not, advances `version` (it occupies a stream revision). */
export function evolve(state: AgentState, event: AnyEvent): AgentState {
  return { ...route(state, event), version: state.version + 1 };
}

/** Folds a whole stream (or a tail onto a snapshot). */
export function replay(events: readonly AnyEvent[], from: AgentState = initialAgentState()): AgentState {
  return events.reduce(evolve, from);
}
