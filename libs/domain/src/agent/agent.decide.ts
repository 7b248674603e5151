import { decideArchiveWorkItems } from '../archive/archive.decide';
import { decideAcceptSpawn, decideDelegateWorkItem } from '../delegation/delegation.decide';
import { decideCompleteDelegation, decideReportDelegation } from '../delegation/delegation-outcome';
import type { DelegationCommand } from '../delegation/delegation.commands';
import { decideControl } from '../control/control.decide';
import { decidePickWorkItem } from '../focus/focus.decide';
import { decideDropMessage, decideEnqueueMessage } from '../queue/queue.decide';
import { decideEmitSystemTick, decideRecordDecision, decideReduceMessage } from '../scheduler/scheduler.decide';
import { decideCreateTask, decideUpdateTaskStatus } from '../task/task.decide';
import { decideExpireTaskLease, decideTaskHeartbeat } from '../task/task-lease.decide';
import { decideCancelTimer, decideCreateTimer, decideFireTimer } from '../timer/timer.decide';
import { decideCloseRound, decideRecordRound } from '../turn/round.decide';
import { decideHeartbeat, decideStartTurn } from '../turn/start-turn.decide';
import { decideExpireLease, decideTurnTerminal } from '../turn/turn-terminal.decide';
import { decideCancelWaitingIntent, decideTriggerWaitingIntent } from '../waiting-intent/trigger-waiting-intent.decide';
import { decideWaitFor } from '../waiting-intent/waiting-intent.decide';
import { decideSubmitWakeHint } from '../wake-hint/wake-hint.decide';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { decideCompleteWorkItem, decideCreateWorkItem, decideUpdateWorkItem } from '../work-item/work-item.decide';
import type { SchedulerCommand } from '../scheduler/scheduler.commands';
import type { TurnCommand } from '../turn/turn.commands';
import type { AgentCommand, RegisterAgent } from './agent.commands';
import type { AgentEvent, AgentRegistered } from './agent.events';
import type { AgentState } from './agent.state';

/** RegisterAgent: opens the agent's stream. A second registration is refused. */
export function decideRegisterAgent(command: RegisterAgent, state: AgentState): AgentRegistered[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = assertValidId(command.data.agent_id, 'agent_id');
  if (state.agent_id !== null) {
    throw new DomainError(
      'already_exists',
      { resource: 'agent', agent_id: state.agent_id },
      `agent ${state.agent_id} already exists`,
    );
  }
  return [{ type: 'AgentRegistered', data: { agent_id: agentId, at: now } }];
}

/**
 * The agent decider: `[]` means already done (safe to retry); a refusal throws DomainError
 * and nothing is appended. One case per command; the rules live in the slices.
 */
export function decide(command: AgentCommand, state: AgentState): AgentEvent[] {
  switch (command.type) {
    case 'RegisterAgent':
      return decideRegisterAgent(command, state);
    case 'CreateWorkItem':
      return decideCreateWorkItem(command, state);
    case 'UpdateWorkItem':
      return decideUpdateWorkItem(command, state);
    case 'PickWorkItem':
      return decidePickWorkItem(command, state);
    case 'CompleteWorkItem':
      return decideCompleteWorkItem(command, state);
    case 'WaitFor':
      return decideWaitFor(command, state);
    case 'TriggerWaitingIntent':
      return decideTriggerWaitingIntent(command, state);
    case 'CancelWaitingIntent':
      return decideCancelWaitingIntent(command, state);
    case 'CreateTask':
      return decideCreateTask(command, state);
    case 'UpdateTaskStatus':
      return decideUpdateTaskStatus(command, state);
    case 'TaskHeartbeat':
      return decideTaskHeartbeat(command, state);
    case 'ExpireTaskLease':
      return decideExpireTaskLease(command, state);
    case 'CreateTimer':
      return decideCreateTimer(command, state);
    case 'CancelTimer':
      return decideCancelTimer(command, state);
    case 'FireTimer':
      return decideFireTimer(command, state);
    case 'SubmitWakeHint':
      return decideSubmitWakeHint(command, state);
    case 'EnqueueMessage':
      return decideEnqueueMessage(command, state);
    case 'DropMessage':
      return decideDropMessage(command, state);
    case 'Control':
      return decideControl(command, state);
    case 'ArchiveWorkItems':
      return decideArchiveWorkItems(command, state);
    default:
      return decideRuntimeCommand(command, state);
  }
}

/** Turns, the scheduler's own commands and delegation (the second half of the dispatcher). */
function decideRuntimeCommand(
  command: TurnCommand | SchedulerCommand | DelegationCommand,
  state: AgentState,
): AgentEvent[] {
  switch (command.type) {
    case 'StartTurn':
      return decideStartTurn(command, state);
    case 'Heartbeat':
      return decideHeartbeat(command, state);
    case 'RecordRound':
      return decideRecordRound(command, state);
    case 'CloseRound':
      return decideCloseRound(command, state);
    case 'TurnTerminal':
      return decideTurnTerminal(command, state);
    case 'ExpireLease':
      return decideExpireLease(command, state);
    case 'RecordDecision':
      return decideRecordDecision(command, state);
    case 'EmitSystemTick':
      return decideEmitSystemTick(command, state);
    case 'ReduceMessage':
      return decideReduceMessage(command, state);
    case 'DelegateWorkItem':
      return decideDelegateWorkItem(command, state);
    case 'AcceptSpawn':
      return decideAcceptSpawn(command, state);
    case 'ReportDelegation':
      return decideReportDelegation(command, state);
    case 'CompleteDelegation':
      return decideCompleteDelegation(command, state);
    default:
      return unknownCommand(command);
  }
}

function unknownCommand(command: never): never {
  const type = (command as { type?: unknown }).type;
  throw new DomainError('validation_failed', { field: 'type', rule: 'unknown_command', type });
}
