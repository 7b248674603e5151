// Original file: proto/agent_runtime.proto

import type { CurrentItemState as _agent_runtime_v1_CurrentItemState, CurrentItemState__Output as _agent_runtime_v1_CurrentItemState__Output } from '../../agent_runtime/v1/CurrentItemState';
import type { OpenTurnState as _agent_runtime_v1_OpenTurnState, OpenTurnState__Output as _agent_runtime_v1_OpenTurnState__Output } from '../../agent_runtime/v1/OpenTurnState';
import type { QueueState as _agent_runtime_v1_QueueState, QueueState__Output as _agent_runtime_v1_QueueState__Output } from '../../agent_runtime/v1/QueueState';
import type { WorkItemIds as _agent_runtime_v1_WorkItemIds, WorkItemIds__Output as _agent_runtime_v1_WorkItemIds__Output } from '../../agent_runtime/v1/WorkItemIds';
import type { RecheckState as _agent_runtime_v1_RecheckState, RecheckState__Output as _agent_runtime_v1_RecheckState__Output } from '../../agent_runtime/v1/RecheckState';
import type { ActiveIntentState as _agent_runtime_v1_ActiveIntentState, ActiveIntentState__Output as _agent_runtime_v1_ActiveIntentState__Output } from '../../agent_runtime/v1/ActiveIntentState';
import type { ScheduledTimerState as _agent_runtime_v1_ScheduledTimerState, ScheduledTimerState__Output as _agent_runtime_v1_ScheduledTimerState__Output } from '../../agent_runtime/v1/ScheduledTimerState';
import type { ActiveTaskState as _agent_runtime_v1_ActiveTaskState, ActiveTaskState__Output as _agent_runtime_v1_ActiveTaskState__Output } from '../../agent_runtime/v1/ActiveTaskState';
import type { PendingWakeHint as _agent_runtime_v1_PendingWakeHint, PendingWakeHint__Output as _agent_runtime_v1_PendingWakeHint__Output } from '../../agent_runtime/v1/PendingWakeHint';
import type { Decision as _agent_runtime_v1_Decision, Decision__Output as _agent_runtime_v1_Decision__Output } from '../../agent_runtime/v1/Decision';
import type { ProjectionLag as _agent_runtime_v1_ProjectionLag, ProjectionLag__Output as _agent_runtime_v1_ProjectionLag__Output } from '../../agent_runtime/v1/ProjectionLag';
import type { LastTurnTerminal as _agent_runtime_v1_LastTurnTerminal, LastTurnTerminal__Output as _agent_runtime_v1_LastTurnTerminal__Output } from '../../agent_runtime/v1/LastTurnTerminal';
import type { RuntimeError as _agent_runtime_v1_RuntimeError, RuntimeError__Output as _agent_runtime_v1_RuntimeError__Output } from '../../agent_runtime/v1/RuntimeError';
import type { Closure as _agent_runtime_v1_Closure, Closure__Output as _agent_runtime_v1_Closure__Output } from '../../agent_runtime/v1/Closure';

/**
 * The stored scheduler_state (as of projected_at), next_decision computed now on the agent,
 * and the read models' lag. HTTP's `candidates` ({class: [ids]}) is a map of WorkItemIds here.
 */
export interface SchedulerState {
  'agent_id'?: (string);
  'posture'?: (string);
  /**
   * Events folded (= stream revision + 1).
   */
  'version'?: (number);
  'turn_index'?: (number);
  'current_work_item'?: (_agent_runtime_v1_CurrentItemState | null);
  'open_turn'?: (_agent_runtime_v1_OpenTurnState | null);
  'queue'?: (_agent_runtime_v1_QueueState | null);
  'replay_message_ids'?: (string)[];
  'counts'?: ({[key: string]: number});
  'candidates'?: ({[key: string]: _agent_runtime_v1_WorkItemIds});
  'rechecks_due'?: (_agent_runtime_v1_RecheckState)[];
  'active_intents'?: (_agent_runtime_v1_ActiveIntentState)[];
  'scheduled_timers'?: (_agent_runtime_v1_ScheduledTimerState)[];
  'active_tasks'?: (_agent_runtime_v1_ActiveTaskState)[];
  'pending_wake_hint'?: (_agent_runtime_v1_PendingWakeHint | null);
  'last_decision'?: (_agent_runtime_v1_Decision | null);
  'revision'?: (string);
  'projected_at'?: (string);
  'next_due_at'?: (string);
  'next_decision'?: (_agent_runtime_v1_Decision | null);
  'projection_lag'?: (_agent_runtime_v1_ProjectionLag | null);
  /**
   * Absent before the first turn ended, and while the newest turn is open.
   */
  'last_turn_terminal'?: (_agent_runtime_v1_LastTurnTerminal | null);
  /**
   * Absent when there is none.
   */
  'runtime_error'?: (_agent_runtime_v1_RuntimeError | null);
  /**
   * The posture, or "awaiting_task" when the agent awaits a task and nothing else can run.
   */
  'runtime_posture'?: (string);
  'closure'?: (_agent_runtime_v1_Closure | null);
  '_next_due_at'?: "next_due_at";
}

/**
 * The stored scheduler_state (as of projected_at), next_decision computed now on the agent,
 * and the read models' lag. HTTP's `candidates` ({class: [ids]}) is a map of WorkItemIds here.
 */
export interface SchedulerState__Output {
  'agent_id': (string);
  'posture': (string);
  /**
   * Events folded (= stream revision + 1).
   */
  'version': (number);
  'turn_index': (number);
  'current_work_item': (_agent_runtime_v1_CurrentItemState__Output | null);
  'open_turn': (_agent_runtime_v1_OpenTurnState__Output | null);
  'queue': (_agent_runtime_v1_QueueState__Output | null);
  'replay_message_ids': (string)[];
  'counts': ({[key: string]: number});
  'candidates': ({[key: string]: _agent_runtime_v1_WorkItemIds__Output});
  'rechecks_due': (_agent_runtime_v1_RecheckState__Output)[];
  'active_intents': (_agent_runtime_v1_ActiveIntentState__Output)[];
  'scheduled_timers': (_agent_runtime_v1_ScheduledTimerState__Output)[];
  'active_tasks': (_agent_runtime_v1_ActiveTaskState__Output)[];
  'pending_wake_hint': (_agent_runtime_v1_PendingWakeHint__Output | null);
  'last_decision': (_agent_runtime_v1_Decision__Output | null);
  'revision': (string);
  'projected_at': (string);
  'next_due_at'?: (string);
  'next_decision': (_agent_runtime_v1_Decision__Output | null);
  'projection_lag': (_agent_runtime_v1_ProjectionLag__Output | null);
  /**
   * Absent before the first turn ended, and while the newest turn is open.
   */
  'last_turn_terminal': (_agent_runtime_v1_LastTurnTerminal__Output | null);
  /**
   * Absent when there is none.
   */
  'runtime_error': (_agent_runtime_v1_RuntimeError__Output | null);
  /**
   * The posture, or "awaiting_task" when the agent awaits a task and nothing else can run.
   */
  'runtime_posture': (string);
  'closure': (_agent_runtime_v1_Closure__Output | null);
  '_next_due_at'?: "next_due_at";
}
