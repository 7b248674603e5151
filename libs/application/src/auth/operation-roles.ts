import { READ_ROLES, type AgentRole } from './roles';

/**
 * Which roles each write accepts, by its gRPC name; the HTTP route of the same operation declares
 * the same roles (`@OperationRoles('CreateWorkItem')`), so the two transports cannot drift. Every
 * read accepts every role (READ_ROLES); an admin token passes everything. The table is the one in
 * docs/reliability-security.md ("Tokens: roles, names, rotation and the failed-login throttle").
 */
export const OPERATION_ROLES = {
  // An operator sets the agent up and hands it work; the host works it.
  RegisterAgent: ['operator'],
  CreateWorkItem: ['host', 'operator'],
  UpdateWorkItem: ['host', 'operator'],
  PickWorkItem: ['host'],
  CompleteWorkItem: ['host', 'operator'],
  ReplacePlan: ['host'],
  // The host opens turns and records rounds.
  Activate: ['host'],
  Heartbeat: ['host'],
  RecordRound: ['host'],
  CloseRound: ['host'],
  TurnTerminal: ['host'],
  // The host declares what it waits for; an integration (or an operator) triggers waits.
  WaitFor: ['host'],
  CancelWaitingIntent: ['host', 'operator'],
  TriggerWaitingIntent: ['integration', 'operator'],
  SubmitWakeHint: ['integration', 'operator'],
  CreateTask: ['host'],
  UpdateTaskStatus: ['host', 'integration'],
  TaskHeartbeat: ['host', 'integration'],
  CreateTimer: ['host'],
  CancelTimer: ['host', 'operator'],
  // The queue: operator instructions, external events, the host's own follow-ups; control is the operator's.
  EnqueueMessage: ['host', 'operator', 'integration'],
  DropMessage: ['operator'],
  Control: ['operator'],
  // A host (its model's SpawnAgent tool) or an operator hands work to a child agent.
  SpawnAgent: ['host', 'operator'],
} as const satisfies Record<string, readonly AgentRole[]>;

export type WriteOperation = keyof typeof OPERATION_ROLES;

/** The roles of an operation: its entry, or every role for a read. */
export function rolesOf(operation: string): readonly AgentRole[] {
  return (OPERATION_ROLES as Record<string, readonly AgentRole[]>)[operation] ?? READ_ROLES;
}
