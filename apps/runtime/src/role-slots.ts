import { Module } from '@nestjs/common';

/*
 * Clearly named slots that RUNTIME_ROLE switches on or off. Each is empty today:
 * feature work adds its modules to the slot's `imports`.
 */

/** HTTP /v1 controllers and @GrpcService providers (roles all, api). */
@Module({ imports: [] })
export class ApiSlotModule {}

/** Projection workers: store subscription -> read models (roles all, projector). */
@Module({ imports: [] })
export class ProjectorSlotModule {}

/** Scheduler worker: timers, ticks, decisions (roles all, scheduler). */
@Module({ imports: [] })
export class SchedulerSlotModule {}
