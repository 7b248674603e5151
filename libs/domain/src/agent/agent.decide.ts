import { decidePickWorkItem } from '../focus/focus.decide';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { decideCompleteWorkItem, decideCreateWorkItem, decideUpdateWorkItem } from '../work-item/work-item.decide';
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
 * and nothing is appended. Later slices add their cases here.
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
    default:
      return unknownCommand(command);
  }
}

function unknownCommand(command: never): never {
  const type = (command as { type?: unknown }).type;
  throw new DomainError('validation_failed', { field: 'type', rule: 'unknown_command', type });
}
