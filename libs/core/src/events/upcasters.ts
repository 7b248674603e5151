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

export const EVENT_UPCASTERS: readonly Upcaster[] = [workItemCreatedV0];

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
