import { isArchiveEvent } from '../archive/archive.events';
import { evolveArchive } from '../archive/archive.evolve';
import { isDelegationEvent } from '../delegation/delegation.events';
import { evolveDelegation, observeChildItem } from '../delegation/delegation.evolve';
import { isControlEvent } from '../control/control.events';
import { evolveControl } from '../control/control.evolve';
import { isFocusEvent } from '../focus/focus.events';
import { evolveFocus } from '../focus/focus.evolve';
import { isQueueEvent } from '../queue/queue.events';
import { evolveQueue } from '../queue/queue.evolve';
import { isSchedulerEvent } from '../scheduler/scheduler.events';
import { evolveScheduler } from '../scheduler/scheduler.evolve';
import { isTaskEvent } from '../task/task.events';
import { evolveTask } from '../task/task.evolve';
import { isTimerEvent } from '../timer/timer.events';
import { evolveTimer } from '../timer/timer.evolve';
import { isTurnEvent } from '../turn/turn.events';
import { evolveTurn, observeCompletion } from '../turn/turn.evolve';
import { isWaitingIntentEvent } from '../waiting-intent/waiting-intent.events';
import { evolveWaitingIntent } from '../waiting-intent/waiting-intent.evolve';
import { isWakeHintEvent } from '../wake-hint/wake-hint.events';
import { evolveWakeHint } from '../wake-hint/wake-hint.evolve';
import { isWorkItemEvent } from '../work-item/work-item.events';
import { evolveWorkItem } from '../work-item/work-item.evolve';
import { evolveProgress } from './progress.evolve';
import { reindexed } from './scheduling-index.upkeep';
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
  if (isWorkItemEvent(event)) {
    const next = evolveWorkItem(state, event);
    if (event.type === 'WorkItemCreated') return observeChildItem(next, event);
    return event.type === 'WorkItemCompleted' ? observeCompletion(next, event) : next;
  }
  if (isFocusEvent(event)) return evolveFocus(state, event);
  if (isWaitingIntentEvent(event)) return evolveWaitingIntent(state, event);
  if (isTaskEvent(event)) return evolveTask(state, event);
  if (isTimerEvent(event)) return evolveTimer(state, event);
  if (isWakeHintEvent(event)) return evolveWakeHint(state, event);
  if (isQueueEvent(event)) return evolveQueue(state, event);
  if (isControlEvent(event)) return evolveControl(state, event);
  if (isTurnEvent(event)) return evolveTurn(state, event);
  if (isSchedulerEvent(event)) return evolveScheduler(state, event);
  if (isArchiveEvent(event)) return evolveArchive(state, event);
  if (isDelegationEvent(event)) return evolveDelegation(state, event);
  return state;
}

/** Folds one stored event. Every event, known or not, advances `version` (it occupies a stream revision). */
export function evolve(state: AgentState, event: AnyEvent): AgentState {
  const next = route(state, event);
  return {
    ...next,
    scheduling_index: reindexed(state, next),
    progress: evolveProgress(state, next, event),
    version: state.version + 1,
  };
}

/** Folds a whole stream (or a tail onto a snapshot). */
export function replay(events: readonly AnyEvent[], from: AgentState = initialAgentState()): AgentState {
  return events.reduce(evolve, from);
}
