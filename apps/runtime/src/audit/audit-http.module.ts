import { Module } from '@nestjs/common';
import { AuditModule } from '@app/application';
import { AgentEventsController } from './agent-events.controller';
import { ChangesController } from './changes.controller';
import { EventStreams } from './event-stream';
import { ProjectionsController } from './projections.controller';
import { ServiceAddressLifecycle } from './service-address.lifecycle';

/** Audit over HTTP: the agent's events (paged and live), the changes across agents (live) and the projection admin routes. */
@Module({
  imports: [AuditModule],
  controllers: [AgentEventsController, ChangesController, ProjectionsController],
  providers: [EventStreams, ServiceAddressLifecycle],
})
export class AuditHttpModule {}
