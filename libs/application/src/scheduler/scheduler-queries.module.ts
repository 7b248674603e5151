import { Module } from '@nestjs/common';
import { ReadModelsModule } from '@app/read-models';
import { WorkItemsModule } from '../work-items/work-items.module';
import { SCHEDULER_QUERY_HANDLERS } from './scheduler-query.handlers';

/** Scheduler reads: state, context, decisions, briefs, delivery summaries (read models, and the aggregate where it must be fresh). */
@Module({
  imports: [WorkItemsModule, ReadModelsModule],
  providers: [...SCHEDULER_QUERY_HANDLERS],
  exports: [WorkItemsModule],
})
export class SchedulerQueriesModule {}
