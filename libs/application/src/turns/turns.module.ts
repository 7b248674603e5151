import { Module } from '@nestjs/common';
import { WorkItemsModule } from '../work-items/work-items.module';
import { TURN_HANDLERS } from './turn.handlers';

/** The host's turn commands (heartbeat, rounds, round close, terminal), through the agents' AgentCommandService. */
@Module({ imports: [WorkItemsModule], providers: [...TURN_HANDLERS], exports: [WorkItemsModule] })
export class TurnsModule {}
