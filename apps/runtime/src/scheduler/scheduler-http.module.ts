import { Module } from '@nestjs/common';
import { SchedulerQueriesModule, SchedulerStepModule, TurnsModule } from '@app/application';
import { ActivationsController } from './activations.controller';
import { SchedulerQueriesController } from './scheduler-queries.controller';
import { TurnsController } from './turns.controller';

/** Activations, the host's turn routes and the scheduler's reads. */
@Module({
  imports: [SchedulerStepModule, TurnsModule, SchedulerQueriesModule],
  controllers: [ActivationsController, TurnsController, SchedulerQueriesController],
})
export class SchedulerHttpModule {}
