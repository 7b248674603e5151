import { Module, type Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { POSTGRES_POOL, PROJECTION_RUNNER, READ_MODELS_PROJECTION } from '@app/read-models';
import { AgentEventsReader } from './agent-events.reader';
import { ChangesFeed } from './changes-feed';
import {
  projectionCheckpoint,
  ProjectionsAdmin,
  type RebuildableProjection,
  type SqlReader,
} from './projections-admin';

export const AGENT_EVENTS_READER = Symbol('AGENT_EVENTS_READER');
export const PROJECTIONS_ADMIN = Symbol('PROJECTIONS_ADMIN');
export const CHANGES_FEED = Symbol('CHANGES_FEED');

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
  {
    provide: AGENT_EVENTS_READER,
    inject: [EVENT_STORE],
    useFactory: (store: EventStore) => new AgentEventsReader(store),
  },
  {
    provide: PROJECTIONS_ADMIN,
    inject: [POSTGRES_POOL, EVENT_STORE, ModuleRef],
    useFactory: (pool: SqlReader, store: EventStore, moduleRef: ModuleRef) =>
      new ProjectionsAdmin(pool, store, inProcessRunner(moduleRef)),
  },
  {
    provide: CHANGES_FEED,
    inject: [POSTGRES_POOL, EVENT_STORE],
    useFactory: (pool: SqlReader, store: EventStore) =>
      new ChangesFeed(store, () => projectionCheckpoint(pool, READ_MODELS_PROJECTION)),
  },
];

/** Audit reads of agent streams, the changes feed across agents and the projection admin (needs the global InfrastructureModule). */
@Module({ providers, exports: [AGENT_EVENTS_READER, PROJECTIONS_ADMIN, CHANGES_FEED] })
export class AuditModule {}
