import { Module, type Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { POSTGRES_POOL } from '@app/read-models/postgres/postgres-pool';
import { PROJECTION_RUNNER } from '@app/read-models/read-models.module';
import { AgentEventsReader } from './agent-events.reader';
import { ProjectionsAdmin, type RebuildableProjection, type SqlReader } from './projections-admin';

export const AGENT_EVENTS_READER = Symbol('AGENT_EVENTS_READER');
export const PROJECTIONS_ADMIN = Symbol('PROJECTIONS_ADMIN');

/** The in-process projection runner when this role runs one (ProjectorModule), else null. */
function inProcessRunner(moduleRef: ModuleRef): () => RebuildableProjection | null {
  return () => {
    try {
      return moduleRef.get<RebuildableProjection>(PROJECTION_RUNNER, { strict: false });
    } catch {
      return null;
    }
  };
}

const providers: Provider[] = [
  { provide: AGENT_EVENTS_READER, inject: [EVENT_STORE], useFactory: (store: EventStore) => new AgentEventsReader(store) },
  {
    provide: PROJECTIONS_ADMIN,
    inject: [POSTGRES_POOL, EVENT_STORE, ModuleRef],
    useFactory: (pool: SqlReader, store: EventStore, moduleRef: ModuleRef) => new ProjectionsAdmin(pool, store, inProcessRunner(moduleRef)),
  },
];

/** Audit reads of agent streams and the projection admin (needs the global InfrastructureModule). */
@Module({ providers, exports: [AGENT_EVENTS_READER, PROJECTIONS_ADMIN] })
export class AuditModule {}
