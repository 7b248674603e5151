import { isAbsolute, resolve, sep } from 'node:path';
import { isValidId, type PlanArtifact } from '@app/domain';

/** A plan descriptor as views and replies show it: with the file's absolute path on this replica. */
export type LocalPlanArtifact = PlanArtifact & { path: string };

/**
 * The plan file of an item under an agent home: `<AGENT_HOME>/<agent_id>/work-items/<work_item_id>/plan.md`,
 * built only from validated ids and checked to stay inside the home.
 */
export function planFilePath(agentHome: string, agentId: string, workItemId: string): string {
  // Every write command names its item's plan file twice (describe, the reply's `path`): an
  // absolute home gives the same path whatever the working directory, so it is kept.
  const key = `${agentHome}\u0000${agentId}\u0000${workItemId}`;
  const known = knownPaths.get(key);
  if (known !== undefined) return known;
  const path = buildPlanFilePath(agentHome, agentId, workItemId);
  if (isAbsolute(agentHome)) {
    if (knownPaths.size >= KNOWN_PATHS) knownPaths.clear();
    knownPaths.set(key, path);
  }
  return path;
}

const KNOWN_PATHS = 10_000;
const knownPaths = new Map<string, string>();

function buildPlanFilePath(agentHome: string, agentId: string, workItemId: string): string {
  const root = resolve(agentHome);
  if (!isValidId(agentId) || !isValidId(workItemId))
    throw new Error(`refusing a plan path from invalid ids: ${agentId}/${workItemId}`);
  const path = resolve(root, agentId, 'work-items', workItemId, 'plan.md');
  if (!path.startsWith(root + sep)) throw new Error(`plan path escapes the agent home: ${path}`);
  return path;
}

/** The descriptor with `path` (first, as the wire always showed it) naming the file under `agentHome`. */
export function localPlanArtifact(
  plan: PlanArtifact,
  agentHome: string,
  agentId: string,
  workItemId: string,
): LocalPlanArtifact {
  const { path: _recorded, ...descriptor } = plan as PlanArtifact & { path?: unknown };
  return { path: planFilePath(agentHome, agentId, workItemId), ...descriptor };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A reply (or view, or context projection) with every plan descriptor's `path` under this
 * replica's agent home. Events and the domain hold only `relative_path` (and views stored by
 * older code the path of the replica that wrote them); the file itself is always
 * `<AGENT_HOME>/<agent_id>/work-items/<work_item_id>/plan.md`, so replies name the working copy
 * this replica serves. A descriptor is the `plan_artifact` of an object whose `id` is the work
 * item's (a work item view, a context section's item); the agent is the object's own
 * `agent_id`, else `agentId`. Plain objects and arrays are copied where something changes;
 * everything else is returned as it is.
 */
export function withLocalPlanPaths<T>(value: T, agentHome: string, agentId?: string): T {
  return localize(value, agentHome, agentId) as T;
}

function localize(value: unknown, agentHome: string, agentId: string | undefined): unknown {
  // Every reply goes through here: nothing is allocated for what does not change.
  if (Array.isArray(value)) {
    let items: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = localize(value[i], agentHome, agentId);
      if (item !== value[i]) (items ??= value.slice())[i] = item;
    }
    return items ?? value;
  }
  if (!isPlainObject(value)) return value;
  const owner = typeof value.agent_id === 'string' ? value.agent_id : agentId;
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const field = value[key];
    let next = localize(field, agentHome, owner);
    if (key === 'plan_artifact' && isPlainObject(field) && typeof value.id === 'string' && owner !== undefined)
      next = localPlanArtifact(field as PlanArtifact, agentHome, owner, value.id);
    if (next !== field) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}
