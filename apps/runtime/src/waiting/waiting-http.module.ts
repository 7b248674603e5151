import { Module } from '@nestjs/common';
import { WaitingPlaneModule } from '@app/application';
import { CallbacksController } from './callbacks.controller';
import { MessagesController } from './messages.controller';
import { TasksController } from './tasks.controller';
import { TimersController } from './timers.controller';
import { WaitsController } from './waits.controller';

/** HTTP routes of the waiting plane, tasks, timers, wake hints, messages and control. */
@Module({
  imports: [WaitingPlaneModule],
  controllers: [WaitsController, CallbacksController, TimersController, TasksController, MessagesController],
})
export class WaitingHttpModule {}
