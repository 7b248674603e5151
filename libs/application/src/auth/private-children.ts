/**
 * The parents of private children (issue 17 item 1: a token scoped to a parent also covers the
 * private children it spawns, and theirs). Kept in memory so the authorizer stays synchronous:
 * the spawn adds a child at once in the process that spawned it, and every process refreshes
 * it from the `agent_parents` read model (docs/decisions/0031-delegation-hand-off.md).
 */
export class PrivateChildren {
  private readonly parents = new Map<string, string>();

  /** The child's parent from now on (a repeated add changes nothing). */
  add(childId: string, parentId: string): void {
    if (childId !== parentId) this.parents.set(childId, parentId);
  }

  parentOf(agentId: string): string | null {
    return this.parents.get(agentId) ?? null;
  }

  /** The agent's ancestors through private spawns, nearest first (bounded: a cycle cannot loop). */
  ancestorsOf(agentId: string): string[] {
    const found: string[] = [];
    for (let at = this.parents.get(agentId); at !== undefined && found.length < 16; at = this.parents.get(at)) {
      if (found.includes(at) || at === agentId) break;
      found.push(at);
    }
    return found;
  }
}

export const PRIVATE_CHILDREN = Symbol('PRIVATE_CHILDREN');
