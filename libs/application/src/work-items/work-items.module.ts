import { Module, type Provider } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { POSTGRES_POOL, ReadModelsModule } from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import { ArchivedWorkItemIds, ArchiveWorkItemsHandler } from '../archive/archive.handler';
import { agentRepositoryProvider } from '../agents/agents.providers';
import { PLAN_STORE, PlanArtifactStore } from '../plans/plan-artifact.store';
import { PlanBodies, type PlanBodySql } from '../plans/plan-bodies';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';
import { WORK_ITEM_COMMAND_HANDLERS } from './work-item.handlers';
import { WORK_ITEM_QUERY_HANDLERS } from './work-item.queries';
import { PLAN_VERSION_QUERY_HANDLERS } from './plan-versions.queries';

const planStoreProvider: Provider = {
  provide: PLAN_STORE,
  inject: [APPLICATION_SETTINGS, POSTGRES_POOL],
  useFactory: (config: ApplicationSettings, pool: PlanBodySql) =>
    new PlanArtifactStore(config.agentHome, new PlanBodies(pool)),
};

/** Agents and work items: commands through the agent repository, queries from the read models. */
@Module({
  imports: [CqrsModule, ReadModelsModule],
  providers: [
    agentRepositoryProvider,
    planStoreProvider,
    AgentCommandService,
    ...WORK_ITEM_COMMAND_HANDLERS,
    ArchiveWorkItemsHandler,
    ArchivedWorkItemIds,
    ...WORK_ITEM_QUERY_HANDLERS,
    ...PLAN_VERSION_QUERY_HANDLERS,
  ],
  exports: [CqrsModule, AgentCommandService, PLAN_STORE],
})
export class WorkItemsModule {}
