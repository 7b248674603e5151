import { requireRegistered } from '../agent/agent.guards';
import type { AgentState, Posture } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { requireOneOf } from '../shared/validation';
import { CONTROL_ACTIONS, type Control, type ControlAction } from './control.commands';
import type { ControlEvent } from './control.events';

const EVENT_TYPES = {
  start: 'AgentStarted',
  stop: 'AgentStopped',
  pause: 'AgentPaused',
  resume: 'AgentResumed',
} as const satisfies Record<ControlAction, ControlEvent['type']>;

const isGated = (posture: Posture): boolean => posture === 'stopped' || posture === 'paused';

/** Back from a gate: running again if a turn is still open, else idle. Control never starts a turn. */
const ungated = (state: AgentState): Posture => (state.open_turn_id === null ? 'awake_idle' : 'awake_running');

/**
 * The posture an action leads to, or null when it changes nothing: stop is the hard gate; pause
 * leaves a stopped agent stopped (it would loosen the gate); start and resume lift either gate.
 */
export function postureAfter(action: ControlAction, state: AgentState): Posture | null {
  const { posture } = state;
  switch (action) {
    case 'stop':
      return posture === 'stopped' ? null : 'stopped';
    case 'pause':
      return isGated(posture) ? null : 'paused';
    case 'start':
    case 'resume':
      return isGated(posture) ? ungated(state) : null;
  }
}

/** Control: start | stop | pause | resume. An action that changes nothing records nothing. */
export function decideControl(command: Control, state: AgentState): ControlEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const action = requireOneOf(command.data.action, 'action', CONTROL_ACTIONS);
  const posture = postureAfter(action, state);
  if (posture === null) return [];
  const data = { agent_id: agentId, previous_posture: state.posture, posture, at: now };
  return [{ type: EVENT_TYPES[action], data } as ControlEvent];
}
