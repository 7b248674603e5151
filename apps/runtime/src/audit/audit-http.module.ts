import { Module } from '@nestjs/common';
import { AuditModule } from '@app/application';
import { AgentEventsController } from './agent-events.controller';
import { ChangesController } from './changes.controller';
import { EventStreams } from './event-stream';
import { ProjectionsController } from './projections.controller';
import { RefusalsController } from './refusals.controller';
import { ServiceAddressLifecycle } from './service-address.lifecycle';

/** Audit over HTTP: the agent's events (paged and live), the changes across agents (live), the projection admin routes and the refusals audit. */
@Module({
  imports: [AuditModule],
  controllers: [AgentEventsController, ChangesController, ProjectionsController, RefusalsController],
  providers: [EventStreams, ServiceAddressLifecycle],
})
export class AuditHttpModule {}
