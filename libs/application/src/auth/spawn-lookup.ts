import { agentStream } from '@app/core';
import type { EventStore } from '@app/event-store';
import type { SpawnLookup } from './private-children';

/**
 * An agent's spawn facts from the store, never behind: `AgentSpawned` is in the agent's first
 * append, right after `AgentRegistered` (docs/domain-contract.md §11), so its head is enough.
 */
export function storeSpawnLookup(store: EventStore): SpawnLookup {
  return async (agentId) => {
    const head = await store.readStream(agentStream(agentId), { max_count: 4 });
    if (head.length === 0) return 'unknown';
    const spawned = head.find((event) => event.type === 'AgentSpawned');
    if (spawned === undefined) return null;
    const data = spawned.data as { parent_agent_id?: unknown; workspace_mode?: unknown };
    return typeof data.parent_agent_id === 'string' && typeof data.workspace_mode === 'string'
      ? { parent_agent_id: data.parent_agent_id, workspace_mode: data.workspace_mode }
      : null;
  };
}
