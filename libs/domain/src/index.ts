// Public surface of @app/domain: pure decider, events, commands, derived views and reply renderers.

export * from './shared/domain-error';
export * from './shared/ids';
export * from './shared/time';
export * from './shared/text';
export * from './shared/warnings';
export * from './shared/command-meta';
export { RecordMap, type Entry as RecordMapEntry, valuesInObjectOrder } from './shared/record-map';

export * from './agent/agent.state';
export * from './agent/agent.events';
export * from './agent/agent.commands';
export { decide, decideRegisterAgent } from './agent/agent.decide';
export { evolve, replay } from './agent/agent.evolve';
export { schedulingIndexOf } from './agent/scheduling-index.upkeep';
export type { SchedulingIndex } from './agent/scheduling-index';
export { initialProgress, type ProgressState } from './agent/progress.state';

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

export * from './shared/json';
export * from './shared/validation';

export * from './waiting-intent/waiting-intent.state';
export * from './waiting-intent/waiting-intent.events';
export * from './waiting-intent/waiting-intent.commands';
export { decideWaitFor } from './waiting-intent/waiting-intent.decide';
export { decideCancelWaitingIntent, decideTriggerWaitingIntent } from './waiting-intent/trigger-waiting-intent.decide';
export { evolveWaitingIntent } from './waiting-intent/waiting-intent.evolve';

export * from './task/task.state';
export * from './task/task.events';
export * from './task/task.commands';
export { decideCreateTask, decideUpdateTaskStatus, taskTransition, type TaskTransition } from './task/task.decide';
export { evolveTask } from './task/task.evolve';
export { expiredTasks, isOverdue, leasedTasks, TASK_LEASE_MAX_MS, TASK_LEASE_MIN_MS } from './task/task-lease';
export { decideExpireTaskLease, decideTaskHeartbeat } from './task/task-lease.decide';

export * from './timer/timer.state';
export * from './timer/timer.events';
export * from './timer/timer.commands';
export { decideCancelTimer, decideCreateTimer, decideFireTimer } from './timer/timer.decide';
export { nextFireAt } from './timer/timer.time';
export { evolveTimer } from './timer/timer.evolve';

export * from './wake-hint/wake-hint.state';
export * from './wake-hint/wake-hint.events';
export * from './wake-hint/wake-hint.commands';
export { decideSubmitWakeHint, wakeHintDisposition, wakeHintTickBody } from './wake-hint/wake-hint.decide';
export { evolveWakeHint } from './wake-hint/wake-hint.evolve';

export * from './queue/message.state';
export * from './queue/queue.events';
export * from './queue/queue.commands';
export { messageQueued, runtimeMessageQueued, type NewMessage } from './queue/queue.messages';
export { CALLER_MESSAGE_KINDS, decideDropMessage, decideEnqueueMessage } from './queue/queue.decide';
export { evolveQueue } from './queue/queue.evolve';
export * from './queue/message-authority';

export * from './control/control.events';
export * from './control/control.commands';
export { decideControl, postureAfter } from './control/control.decide';
export { evolveControl } from './control/control.evolve';

export * from './turn/turn.state';
export * from './turn/turn.events';
export * from './turn/turn.commands';
export * from './turn/turn.validation';
export { decideStartTurn, decideHeartbeat, pendingInterjections } from './turn/start-turn.decide';
export { decideRecordRound, decideCloseRound } from './turn/round.decide';
export { decideTurnTerminal, decideExpireLease, expiredTurn } from './turn/turn-terminal.decide';
export * from './turn/promotion';
export { recoveryEvents, turnToolCallIds } from './turn/recovery';
export { evolveTurn, observeCompletion } from './turn/turn.evolve';
export {
  REPORT_PROMOTION_SKIPPED_WARNING,
  reportPromotionSkippedWarnings,
  UNFINISHED_TODOS_WARNING,
  unfinishedTodosWarnings,
} from './work-item/completion-warnings';

export * from './scheduler/decision';
export * from './scheduler/tick-keys';
export * from './scheduler/scheduler.events';
export * from './scheduler/scheduler.commands';
export * from './scheduler/message-classification';
export {
  decideNextAction,
  DUPLICATE_TICK_SUPPRESSED,
  type LadderRule,
  type LadderRung,
  schedulerLadder,
} from './scheduler/decide-next-action';
export * from './scheduler/scheduler-settings';
export * from './scheduler/scheduler-settings.parse';
export * from './scheduler/what-if';
export { dueRechecks, itemTriggerCount } from './scheduler/work-queue.rungs';
export { decideEmitSystemTick, decideRecordDecision, decideReduceMessage } from './scheduler/scheduler.decide';
export { evolveScheduler } from './scheduler/scheduler.evolve';
export * from './scheduler/scheduler-projection';
export * from './scheduler/replay-decisions';
export { nextDueAt } from './scheduler/next-due';
export { schedulerAgendaOf, type SchedulerAgendaEntry } from './scheduler/scheduler-agenda';

export * from './archive/archive.commands';
export * from './archive/archive.events';
export { decideArchiveWorkItems } from './archive/archive.decide';
export { evolveArchive } from './archive/archive.evolve';
export { archiveSelection, type ArchiveSelection } from './archive/archive.selection';

export * from './views/list';
export * from './views/scheduling';
export * from './views/candidate-ranking';
export * from './views/candidates';
export * from './views/todo';
export * from './views/work-item.view';
export * from './views/waiting-intent.view';
export * from './views/work-item-list';
export * from './views/agent.view';
export * from './views/message.view';
export * from './views/task.view';
export * from './views/timer.view';
export * from './views/context';
export * from './views/decision.view';
export * from './views/turn.view';
export * from './views/explanation';
export * from './views/why-not';
export type { RankedBefore, WhyNotStanding, WhyNotStep } from './views/why-not.ladder';
export type { WhyNotBlocker, WhyNotBlockerKind, WhyNotEvent } from './views/why-not.reasons';
export * from './views/closure';
export * from './views/reminders';
export * from './views/delegation.view';
export * from './views/stranded';
export * from './views/stranded.evaluate';

export * from './delegation/delegation.state';
export * from './delegation/delegation.events';
export * from './delegation/delegation.commands';
export * from './delegation/delegation.decide';
export * from './delegation/delegation-outcome';

export * from './replies/agent.replies';
export * from './replies/waiting-plane.replies';
export * from './replies/runtime.replies';
export * from './replies/turn.replies';
export * from './replies/activation.replies';
export * from './replies/archive.replies';

import { decide } from './agent/agent.decide';
import { evolve } from './agent/agent.evolve';
import { initialAgentState } from './agent/agent.state';

/** The agent decider as one value (decide/evolve/initialState). */
export const agentDecider = { decide, evolve, initialState: initialAgentState } as const;
