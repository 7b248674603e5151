import type { AgentState } from '../agent/agent.state';
import type { ControlEvent } from './control.events';

/** Every control event carries the posture it leads to. */
export function evolveControl(state: AgentState, event: ControlEvent): AgentState {
  return { ...state, posture: event.data.posture };
}
