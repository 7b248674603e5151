import { type AgentEvent, type AgentState, evolve, initialAgentState } from '@app/domain';
import type { AgentDecider } from './agent-decider';

/** Bump when AgentState's shape changes: snapshots of older shapes are then ignored. */
export const AGENT_STATE_VERSION = 1;

/** The domain decider as the repository and the projection runner see it. */
export const agentStateDecider: AgentDecider<AgentState, AgentEvent> = {
  initialState: () => initialAgentState(),
  evolve: (state, event) => evolve(state, event),
  stateVersion: AGENT_STATE_VERSION,
};
