import { Module } from '@nestjs/common';
import { SchedulerStepModule } from '@app/application/scheduler/scheduler.module';
import { ActivationsController } from './activations.controller';

@Module({ imports: [SchedulerStepModule], controllers: [ActivationsController] })
export class SchedulerHttpModule {}
