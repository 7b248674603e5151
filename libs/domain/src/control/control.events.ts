import type { Posture } from '../agent/agent.state';
import { eventGuard } from '../shared/event-guard';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

type PostureChange = { agent_id: string; previous_posture: Posture; posture: Posture; at: string };

export type AgentStarted = { type: 'AgentStarted'; data: PostureChange };
export type AgentStopped = { type: 'AgentStopped'; data: PostureChange };
export type AgentPaused = { type: 'AgentPaused'; data: PostureChange };
export type AgentResumed = { type: 'AgentResumed'; data: PostureChange };

export type ControlEvent = AgentStarted | AgentStopped | AgentPaused | AgentResumed;

export const isControlEvent = eventGuard<ControlEvent>(['AgentStarted', 'AgentStopped', 'AgentPaused', 'AgentResumed']);
