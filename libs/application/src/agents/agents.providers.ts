import type { Provider } from '@nestjs/common';
import type { AgentEvent, AgentState } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import {
  LOGGER,
  type Logger,
  RUNTIME_METRICS,
  type RuntimeMetrics,
  SNAPSHOT_STORE,
  type SnapshotStore,
  agentStateDecider,
  TRACING,
  type Tracing,
} from '@app/core';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';
import { AgentRepository } from './agent-repository';

export const AGENT_REPOSITORY = Symbol('AGENT_REPOSITORY');

export const agentRepositoryProvider: Provider = {
  provide: AGENT_REPOSITORY,
  inject: [
    EVENT_STORE,
    SNAPSHOT_STORE,
    LOGGER,
    { token: RUNTIME_METRICS, optional: true },
    { token: TRACING, optional: true },
    { token: APPLICATION_SETTINGS, optional: true },
  ],
  useFactory: (
    store: EventStore,
    snapshots: SnapshotStore,
    logger: Logger,
    metrics?: RuntimeMetrics,
    tracing?: Tracing,
    settings?: ApplicationSettings,
  ) =>
    new AgentRepository<AgentState, AgentEvent>(store, snapshots, agentStateDecider, {
      ...(settings?.agentCacheMaxMb === undefined ? {} : { cacheMaxBytes: settings.agentCacheMaxMb * 1024 * 1024 }),
      onSnapshotError: (error) => logger.warn({ err: error }, 'agent snapshot not saved (it is only a cache)'),
      metrics,
      // Off: no function at all, so the metadata is built exactly as before.
      ...(tracing?.enabled ? { traceContext: () => tracing.currentContext() } : {}),
    }),
};
