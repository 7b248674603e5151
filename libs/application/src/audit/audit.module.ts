import { Module, type Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { createProjectionRunner, POSTGRES_POOL, PROJECTION_RUNNER, READ_MODELS_PROJECTION } from '@app/read-models';
import { AgentEventsReader } from './agent-events.reader';
import { ChangesFeed } from './changes-feed';
import { DeadLettersAdmin, type ResolvingProjection } from './dead-letters-admin';
import {
  projectionCheckpoint,
  ProjectionsAdmin,
  type RebuildableProjection,
  type SqlReader,
} from './projections-admin';

export const AGENT_EVENTS_READER = Symbol('AGENT_EVENTS_READER');
export const PROJECTIONS_ADMIN = Symbol('PROJECTIONS_ADMIN');
export const CHANGES_FEED = Symbol('CHANGES_FEED');
export const DEAD_LETTERS_ADMIN = Symbol('DEAD_LETTERS_ADMIN');

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

/**
 * The runner that skips and retries a projection's dead letters: the in-process one, or (a role
 * without a projector) one made for it and never started: the resolution holds the checkpoint
 * row's lock either way, so it is safe beside the projector processes.
 */
function resolvingRunner(
  moduleRef: ModuleRef,
  pool: Parameters<typeof createProjectionRunner>[0],
  store: EventStore,
): (projection: string) => ResolvingProjection | null {
  let standalone: ResolvingProjection | undefined;
  return (projection) => {
    if (projection !== READ_MODELS_PROJECTION) return null;
    const running = inProcessRunner(moduleRef)() as ResolvingProjection | null;
    return running ?? (standalone ??= createProjectionRunner(pool, store));
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
    provide: DEAD_LETTERS_ADMIN,
    inject: [POSTGRES_POOL, EVENT_STORE, ModuleRef],
    useFactory: (pool: Parameters<typeof createProjectionRunner>[0], store: EventStore, moduleRef: ModuleRef) =>
      new DeadLettersAdmin(pool, resolvingRunner(moduleRef, pool, store)),
  },
  {
    provide: CHANGES_FEED,
    inject: [POSTGRES_POOL, EVENT_STORE],
    useFactory: (pool: SqlReader, store: EventStore) =>
      new ChangesFeed(store, () => projectionCheckpoint(pool, READ_MODELS_PROJECTION)),
  },
];

/** Audit reads of agent streams, the changes feed across agents and the projection admin (needs the global InfrastructureModule). */
@Module({ providers, exports: [AGENT_EVENTS_READER, PROJECTIONS_ADMIN, DEAD_LETTERS_ADMIN, CHANGES_FEED] })
export class AuditModule {}
