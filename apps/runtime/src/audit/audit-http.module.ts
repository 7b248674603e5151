import { Module } from '@nestjs/common';
import { AuditModule } from '@app/application/audit/audit.module';
import { AgentEventsController } from './agent-events.controller';
import { EventStreams } from './event-stream';
import { ProjectionsController } from './projections.controller';
import { ServiceAddressLifecycle } from './service-address.lifecycle';

/** Audit over HTTP: the agent's events (paged and live) and the projection admin routes. */
@Module({ imports: [AuditModule], controllers: [AgentEventsController, ProjectionsController], providers: [EventStreams, ServiceAddressLifecycle] })
export class AuditHttpModule {}
