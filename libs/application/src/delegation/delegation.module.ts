import {
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Provider,
} from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { LOGGER, type Logger } from '@app/core';
import {
  AGENT_PARENTS_QUERIES,
  type AgentParentsQueries,
  HANDOFF_CHECKPOINTS,
  type HandoffCheckpointStore,
  ReadModelsModule,
} from '@app/read-models';
import { PRIVATE_CHILDREN, type PrivateChildren } from '../auth/private-children';
import { WorkItemsModule } from '../work-items/work-items.module';
import { DelegationHandoff } from './delegation-handoff';
import { DELEGATION_HANDLERS } from './delegation.handlers';
import { HandoffWorker } from './handoff-worker';

/** How often an API process reads new private children from the `agent_parents` read model. */
const PARENTS_REFRESH_MS = 1_000;

/** Keeps the authorizer's PrivateChildren in step with the read model (other processes' spawns). */
@Injectable()
export class PrivateChildrenRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private after = -1n;

  constructor(
    @Inject(AGENT_PARENTS_QUERIES) private readonly parents: AgentParentsQueries,
    @Inject(PRIVATE_CHILDREN) private readonly children: PrivateChildren,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), PARENTS_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    try {
      for (const row of await this.parents.since(this.after)) {
        if (row.workspace_mode === 'private_child') this.children.add(row.agent_id, row.parent_agent_id);
        if (row.position > this.after) this.after = row.position;
      }
    } catch (error) {
      this.logger.error({ err: error, component: 'auth' }, 'private children refresh failed; retrying');
    }
  }
}

/** SpawnAgent and the delegations list (the API role). */
@Module({
  imports: [WorkItemsModule, ReadModelsModule],
  providers: [DelegationHandoff, ...DELEGATION_HANDLERS, PrivateChildrenRefresher],
  exports: [DelegationHandoff],
})
export class DelegationModule {}

export const HANDOFF_WORKER = Symbol('HANDOFF_WORKER');

const workerProvider: Provider = {
  provide: HANDOFF_WORKER,
  inject: [EVENT_STORE, DelegationHandoff, HANDOFF_CHECKPOINTS, LOGGER],
  useFactory: (store: EventStore, handoff: DelegationHandoff, checkpoints: HandoffCheckpointStore, logger: Logger) =>
    new HandoffWorker(store, handoff, checkpoints, logger.child({ component: 'handoff' }), {
      // The scheduler's own decisions: their agent is cached at that revision, mostly in no delegation.
      inNoDelegation: (agentId, revision) => handoff.inNoDelegation(agentId, revision),
    }),
};

@Injectable()
export class HandoffLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(HANDOFF_WORKER) private readonly worker: HandoffWorker) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker.stop();
  }
}

/** The hand-off process manager (roles all and scheduler). */
@Module({
  imports: [WorkItemsModule, ReadModelsModule],
  providers: [DelegationHandoff, workerProvider, HandoffLifecycle],
  exports: [HANDOFF_WORKER],
})
export class DelegationHandoffWorkerModule {}
