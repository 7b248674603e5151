import { isAgentHomeRelativePath } from '@app/domain';
import type { DomainEvent } from '../agents/agent-decider';
import { type EventData, type Upcaster, UpcasterRegistry, type VersionedEvent } from './upcaster-registry';

/*
 * Every upcaster of the runtime, oldest first per type. Each is pure and never overwrites a
 * field the stored event has. Add one per (type, version) step and a stored sample of the
 * older version under fixtures/events/<Type>/v<N>.json (docs/decisions/0007).
 */

/**
 * WorkItemCreated v0 -> v1. The prototype ledgers (schema_version 0) recorded a creation
 * without `plan_status`, `todo_list` or the item `revision`: docs/domain-contract.md defines their defaults
 * at creation (`draft`, an empty list, revision 1).
 */
export const workItemCreatedV0: Upcaster = {
  type: 'WorkItemCreated',
  from: 0,
  up: (data: Readonly<EventData>): EventData => ({
    ...data,
    plan_status: data.plan_status ?? 'draft',
    todo_list: data.todo_list ?? [],
    revision: data.revision ?? 1,
  }),
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The file an old descriptor named, relative to the agent's home: its own `relative_path`, else
 * the part of its absolute `path` after `/<agent_id>/` (`<AGENT_HOME>/<agent_id>/...`), else the
 * file the runtime always uses, `work-items/<work_item_id>/plan.md` (the read side's rule).
 */
export function relativePlanPath(plan: Readonly<Record<string, unknown>>, data: Readonly<EventData>): string {
  if (typeof plan.relative_path === 'string') return plan.relative_path;
  if (typeof plan.path === 'string' && typeof data.agent_id === 'string') {
    const path = plan.path.replaceAll('\\', '/');
    const home = `/${data.agent_id}/`;
    const at = path.lastIndexOf(home);
    const relative = at < 0 ? null : path.slice(at + home.length);
    if (isAgentHomeRelativePath(relative)) return relative;
  }
  return `work-items/${String(data.work_item_id)}/plan.md`;
}

/**
 * An event's `plan_artifact` without the writing replica's absolute `path`, keeping
 * `relative_path` (derived from the path when missing) and every other field as stored.
 */
function planArtifactWithoutPath(data: Readonly<EventData>): EventData {
  const plan = data.plan_artifact;
  if (!isRecord(plan)) return { ...data };
  const { path: _absolute, ...rest } = plan;
  return { ...data, plan_artifact: { ...rest, relative_path: relativePlanPath(plan, data) } };
}

/**
 * WorkItemCreated v1 -> v2 and PlanArtifactRefreshed v1 -> v2. Up to v1 the plan descriptor held
 * the absolute `path` of the replica that wrote it beside `relative_path`; from v2 it holds only
 * `relative_path` (relative to the agent's home) and the hash: views add the path under the
 * reading replica's AGENT_HOME (docs/decisions/0017).
 */
export const workItemCreatedV1: Upcaster = { type: 'WorkItemCreated', from: 1, up: planArtifactWithoutPath };
export const planArtifactRefreshedV1: Upcaster = {
  type: 'PlanArtifactRefreshed',
  from: 1,
  up: planArtifactWithoutPath,
};

export const EVENT_UPCASTERS: readonly Upcaster[] = [workItemCreatedV0, workItemCreatedV1, planArtifactRefreshedV1];

/** The registry of the runtime: every upcaster the code knows. */
export const eventUpcasters = new UpcasterRegistry(EVENT_UPCASTERS);

/** The version the repository stamps on a new event of `type`. */
export const currentSchemaVersion = (type: string): number => eventUpcasters.currentVersion(type);

/** A stored event in the current schema of its type (throws SchemaVersionError when it cannot be read). */
export const upcastEvent = <T extends VersionedEvent>(event: T): T => eventUpcasters.upcast(event);

/** The one conversion of the read path: stored event -> the domain event that `evolve` folds. */
export function toDomainEvent<E extends DomainEvent = DomainEvent>(event: VersionedEvent): E {
  const current = upcastEvent(event);
  return { type: current.type, data: current.data } as E;
}
