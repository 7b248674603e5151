import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { agentStream, upcastEvent } from '@app/core';
import { DomainError, type PlanArtifact } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { PLAN_STORE, type PlanArtifactStore } from '../plans/plan-artifact.store';

/** One recorded version of an item's plan: the descriptor an event named. */
export type PlanVersion = { hash: string; updated_at: string; byte_size: number };

export class ListPlanVersionsQuery extends Query<{ items: PlanVersion[]; total: number }> {
  constructor(
    readonly agentId: string,
    readonly workItemId: string,
  ) {
    super();
  }
}

export class ReadPlanVersionQuery extends Query<string> {
  constructor(
    readonly agentId: string,
    readonly workItemId: string,
    readonly hash: string,
  ) {
    super();
  }
}

const notFound = (resource: string, details: Record<string, unknown>, message: string) =>
  new DomainError('not_found', { resource, ...details }, message);

/**
 * The plan versions of an item: each hash its WorkItemCreated and PlanArtifactRefreshed events
 * recorded, once (its newest record), newest first. Throws not_found for an unknown agent or item.
 */
async function planVersions(store: EventStore, agentId: string, workItemId: string): Promise<PlanVersion[]> {
  const events = await store.readStream(agentStream(agentId));
  if (events.length === 0) throw notFound('agent', { id: agentId }, `agent ${agentId} not found`);
  const byHash = new Map<string, PlanVersion>();
  let found = false;
  for (const stored of events) {
    const event = upcastEvent(stored);
    if (event.type !== 'WorkItemCreated' && event.type !== 'PlanArtifactRefreshed') continue;
    const data = event.data as { work_item_id?: unknown; plan_artifact?: PlanArtifact };
    if (data.work_item_id !== workItemId) continue;
    found = true;
    const plan = data.plan_artifact;
    if (!plan || typeof plan.hash !== 'string') continue;
    byHash.delete(plan.hash);
    byHash.set(plan.hash, { hash: plan.hash, updated_at: plan.updated_at, byte_size: plan.byte_size });
  }
  if (!found) throw notFound('work_item', { id: workItemId }, `work_item ${workItemId} not found`);
  return [...byHash.values()].reverse();
}

@QueryHandler(ListPlanVersionsQuery)
export class ListPlanVersionsHandler implements IQueryHandler<ListPlanVersionsQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ agentId, workItemId }: ListPlanVersionsQuery) {
    const items = await planVersions(this.store, agentId, workItemId);
    return { items, total: items.length };
  }
}

/** A version the item's events recorded (any other hash is 404, even one another item has). */
@QueryHandler(ReadPlanVersionQuery)
export class ReadPlanVersionHandler implements IQueryHandler<ReadPlanVersionQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_STORE) private readonly plans: PlanArtifactStore,
  ) {}

  async execute({ agentId, workItemId, hash }: ReadPlanVersionQuery) {
    const versions = await planVersions(this.store, agentId, workItemId);
    const missing = () => notFound('plan_version', { hash }, `plan version ${hash} not found`);
    if (!versions.some((v) => v.hash === hash)) throw missing();
    const body = await this.plans.version(hash);
    if (body === null) throw missing();
    return body;
  }
}

export const PLAN_VERSION_QUERY_HANDLERS = [ListPlanVersionsHandler, ReadPlanVersionHandler];
