/**
 * Read-your-writes on the client side (docs/api.md, "Consistency of reads"): the highest store
 * `position` each agent's commands got back through this client. A later read of that agent
 * carries it as `min_position`, so the server answers once its read models include the write.
 */
export class WrittenPositions {
  private readonly byAgent = new Map<string, bigint>();

  /** Remembers a command reply's `position` (a decimal string) when it is higher than the agent's last. */
  observe(agentId: string, position: unknown): void {
    const value = parsePosition(position);
    if (value === null) return;
    const known = this.byAgent.get(agentId);
    if (known === undefined || value > known) this.byAgent.set(agentId, value);
  }

  /** The `min_position` for a read of this agent, or undefined when no command of ours wrote to it. */
  minPositionFor(agentId: string): string | undefined {
    return this.byAgent.get(agentId)?.toString();
  }
}

function parsePosition(position: unknown): bigint | null {
  if (typeof position === 'string' && /^\d{1,20}$/.test(position)) return BigInt(position);
  if (typeof position === 'number' && Number.isSafeInteger(position) && position >= 0) return BigInt(position);
  return null;
}
