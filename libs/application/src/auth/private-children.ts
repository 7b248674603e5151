/**
 * The parents of private children (issue 17 item 1: a token scoped to a parent also covers the
 * private children it spawns, and theirs). Kept in memory so the authorizer stays synchronous:
 * the spawn adds a child at once in the process that spawned it, and every process refreshes
 * it from the `agent_parents` read model (docs/decisions/0031-delegation-hand-off.md). A
 * request that misses here is resolved once through the store (`learn`), so a child spawned
 * on another replica is covered at once, not after the next refresh.
 */
export class PrivateChildren {
  private readonly parents = new Map<string, string>();
  /** Agents the store showed are no private child (a spawn is in an agent's first append: final). */
  private readonly roots = new Set<string>();

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

  /**
   * Completes the agent's ancestry from the store (`lookup` reads an agent's spawn facts): every
   * ancestor not known yet is looked up, up to a root. True when it learned a parent.
   */
  async learn(agentId: string, lookup: SpawnLookup): Promise<boolean> {
    let learned = false;
    const seen = new Set<string>();
    for (let at = agentId; seen.size < 16 && !seen.has(at);) {
      seen.add(at);
      let parent = this.parents.get(at);
      if (parent === undefined) {
        if (this.roots.has(at)) break;
        const spawn = await lookup(at);
        if (spawn === 'unknown') break;
        if (spawn === null || spawn.workspace_mode !== 'private_child') {
          if (this.roots.size >= MAX_ROOTS) this.roots.clear();
          this.roots.add(at);
          break;
        }
        this.add(at, spawn.parent_agent_id);
        parent = spawn.parent_agent_id;
        learned = true;
      }
      at = parent;
    }
    return learned;
  }
}

/** Bound of the remembered roots (cleared when full: they are only a cache of the store). */
const MAX_ROOTS = 10_000;

/** An agent's spawn facts: null for an agent that was not spawned, `unknown` for no agent yet. */
export type SpawnLookup = (
  agentId: string,
) => Promise<{ parent_agent_id: string; workspace_mode: string } | null | 'unknown'>;

export const PRIVATE_CHILDREN = Symbol('PRIVATE_CHILDREN');
