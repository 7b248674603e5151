import { Module } from '@nestjs/common';
import { ReadModelsModule } from '@app/read-models';
import { ControlHandler } from '../control/control.handler';
import { MESSAGE_HANDLERS } from '../messages/message.handlers';
import { TASK_HANDLERS } from '../tasks/task.handlers';
import { TIMER_HANDLERS } from '../timers/timer.handlers';
import { WorkItemsModule } from '../work-items/work-items.module';
import { CallbackHandler } from './callback.handler';
import { WAITING_COMMAND_HANDLERS } from './waiting.handlers';
import { ListWaitingIntentsHandler } from './waiting.queries';

/**
 * The waiting plane, tasks, timers, wake hints, messages and control posture: commands through
 * the agents' AgentCommandService (WorkItemsModule's, one repository and cache), queries from the
 * read models.
 */
@Module({
  imports: [WorkItemsModule, ReadModelsModule],
  providers: [
    ...WAITING_COMMAND_HANDLERS,
    CallbackHandler,
    ListWaitingIntentsHandler,
    ...TASK_HANDLERS,
    ...TIMER_HANDLERS,
    ...MESSAGE_HANDLERS,
    ControlHandler,
  ],
})
export class WaitingPlaneModule {}
