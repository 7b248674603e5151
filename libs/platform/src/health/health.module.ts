import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

/** GET /health. Needs the global InfrastructureModule (EVENT_STORE, POSTGRES_POOL). */
@Module({ controllers: [HealthController] })
export class HealthModule {}
