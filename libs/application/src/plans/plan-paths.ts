import { resolve } from 'node:path';
import type { AgentState } from '@app/domain';

/**
 * The state with every plan descriptor's `path` under this replica's agent home. Events hold the
 * path of the replica that wrote them (an imported agent's name another deployment's files); the
 * file itself is always `<AGENT_HOME>/<agent_id>/work-items/<work_item_id>/plan.md`, so replies
 * and the turn context name the working copy this replica serves. Unchanged when all match.
 */
export function withLocalPlanPaths(state: AgentState, agentId: string, agentHome: string): AgentState {
  const root = resolve(agentHome);
  let items = state.work_items;
  for (const [id, item] of state.work_items) {
    const path = resolve(root, agentId, 'work-items', id, 'plan.md');
    if (item.plan_artifact.path !== path)
      items = items.set(id, { ...item, plan_artifact: { ...item.plan_artifact, path } });
  }
  return items === state.work_items ? state : { ...state, work_items: items };
}
