/** Where the scheduler worker finds the agents to look at after a restart (libs/read-models answers it). */
export interface AgentDirectory {
  /** Every registered agent (from the read model). */
  agentIds(): Promise<string[]>;
  /** Events after this position may belong to agents the read model does not know yet. */
  projectedUpTo(): Promise<bigint | null>;
}

export const AGENT_DIRECTORY = Symbol('AGENT_DIRECTORY');
