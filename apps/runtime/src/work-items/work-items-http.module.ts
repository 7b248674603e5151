import { Module } from '@nestjs/common';
import { WorkItemsModule } from '@app/application';
import { AgentsController } from './agents.controller';
import { ArchiveController } from './archive.controller';
import { WorkItemsController } from './work-items.controller';

@Module({ imports: [WorkItemsModule], controllers: [AgentsController, WorkItemsController, ArchiveController] })
export class WorkItemsHttpModule {}
