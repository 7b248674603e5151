import { Module } from '@nestjs/common';
import { SchedulerWorkerModule } from '@app/application/scheduler/scheduler.module';
import { ProjectorModule } from '@app/read-models/read-models.module';
import { AuditHttpModule } from './audit/audit-http.module';
import { ConsoleHttpModule } from './console/console-http.module';
import { AgentRuntimeGrpcModule } from './grpc/agent-runtime-grpc.module';
import { SchedulerHttpModule } from './scheduler/scheduler-http.module';
import { WaitingHttpModule } from './waiting/waiting-http.module';
import { WorkItemsHttpModule } from './work-items/work-items-http.module';

/*
 * Clearly named slots that RUNTIME_ROLE switches on or off: each feature adds its modules
 * to the slot of the role that runs it.
 */

/** HTTP /v1 controllers, @GrpcService providers and the operator console at /console (roles all, api). */
@Module({ imports: [WorkItemsHttpModule, WaitingHttpModule, SchedulerHttpModule, AgentRuntimeGrpcModule, AuditHttpModule, ConsoleHttpModule] })
export class ApiSlotModule {}

/** Projection workers: store subscription -> read models (roles all, projector). */
@Module({ imports: [ProjectorModule] })
export class ProjectorSlotModule {}

/** Scheduler worker: timers, ticks, decisions (roles all, scheduler). */
@Module({ imports: [SchedulerWorkerModule] })
export class SchedulerSlotModule {}
