import {
  AGENT_STATE_SHAPE_VERSION,
  type AgentEvent,
  type AgentState,
  evolve,
  initialAgentState,
  reviveAgentState,
} from '@app/domain';
import type { AgentDecider } from './agent-decider';

/** The domain's state shape version: snapshots of older shapes are ignored (they are only a cache). */
export const AGENT_STATE_VERSION = AGENT_STATE_SHAPE_VERSION;

/** The domain decider as the repository and the projection runner see it. */
export const agentStateDecider: AgentDecider<AgentState, AgentEvent> = {
  initialState: () => initialAgentState(),
  evolve: (state, event) => evolve(state, event),
  stateVersion: AGENT_STATE_VERSION,
  revive: (json) => reviveAgentState(json),
};
