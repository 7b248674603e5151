// Public surface of @app/domain: pure decider, events, commands, derived views and reply renderers.

export * from './shared/domain-error';
export * from './shared/ids';
export * from './shared/time';
export * from './shared/text';
export * from './shared/warnings';
export * from './shared/command-meta';

export * from './agent/agent.state';
export * from './agent/agent.events';
export * from './agent/agent.commands';
export { decide, decideRegisterAgent } from './agent/agent.decide';
export { evolve, replay } from './agent/agent.evolve';

export * from './work-item/work-item.state';
export * from './work-item/work-item.events';
export * from './work-item/work-item.commands';
export * from './work-item/work-item.validation';
export { decideCreateWorkItem, decideCompleteWorkItem, decideUpdateWorkItem } from './work-item/work-item.decide';
export { evolveWorkItem } from './work-item/work-item.evolve';
export { type WaitCancellationCause, waitingIntentCancellationsFor } from './work-item/waiting-intent.hook';

export * from './focus/focus.events';
export * from './focus/focus.commands';
export * from './focus/focus.decide';
export { evolveFocus } from './focus/focus.evolve';

export * from './views/scheduling';
export * from './views/candidates';
export * from './views/todo';
export * from './views/work-item.view';
export * from './views/work-item-list';
export * from './views/agent.view';
export * from './views/replies';

import { decide } from './agent/agent.decide';
import { evolve } from './agent/agent.evolve';
import { initialAgentState } from './agent/agent.state';

/** The agent decider as one value (decide/evolve/initialState). */
export const agentDecider = { decide, evolve, initialState: initialAgentState } as const;
