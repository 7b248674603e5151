import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import {
  DEFAULT_READY_MAX_LAG_SECONDS,
  LEASE_KEEPERS,
  type LeaseKeepers,
  pingPostgres,
  POSTGRES_POOL,
  projectionHealth,
  projectionReadiness,
} from '@app/read-models';
import { ApiError, LEASE_READINESS, type LeaseReadiness } from '@app/core';
import { Public } from '@app/application';
import { ApiErrors, ApiReply } from '@app/contracts';
import { runHealthChecks, type HealthReport } from './health-report';
import { RUNTIME_CONFIG } from '../config/config.providers';
import type { RuntimeConfig } from '../config/runtime-config';

@ApiTags('health')
@Controller('health')
export class HealthController {
  private readonly maxLagSeconds: number;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(POSTGRES_POOL) private readonly pool: Pool,
    @Inject(RUNTIME_CONFIG) config: RuntimeConfig,
    /** The leases this replica should hold (issue 18 provides it); absent: nothing to hold. */
    @Optional() @Inject(LEASE_READINESS) private readonly leases?: LeaseReadiness,
    /** The lease keepers of this process's roles (ADR 0036): the rule when no other hook is given. */
    @Optional() @Inject(LEASE_KEEPERS) private readonly keepers?: LeaseKeepers,
  ) {
    this.maxLagSeconds = config.readyMaxLagSeconds ?? DEFAULT_READY_MAX_LAG_SECONDS;
  }

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and readiness: event store and Postgres reachable' })
  @ApiReply(
    200,
    'HealthReport',
    'both stores answer; projection_lag: the read models checkpoint against the store head',
  )
  @ApiErrors({ 503: 'unavailable: a store does not answer (details: the report)' })
  async check(): Promise<HealthReport> {
    const report = await runHealthChecks({
      event_store: () => this.store.ping(),
      postgres: () => pingPostgres(this.pool),
    });
    if (report.status === 'ok') {
      report.projection_lag = await this.store
        .headPosition()
        .then((head) => projectionHealth(this.pool, head))
        .then(
          (lag) => lag as Record<string, unknown> | null,
          () => null,
        );
    }
    if (report.status !== 'ok') {
      const down = Object.keys(report.checks).filter((name) => report.checks[name] === 'down');
      throw new ApiError('unavailable', `${down.join(', ')} unreachable`, { ...report });
    }
    return report;
  }

  @Get('live')
  @Public()
  @ApiOperation({ summary: 'Liveness: the process answers (no store is asked)' })
  @ApiReply(200, 'HealthLive')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    summary:
      'Readiness: the stores answer, no projection is stalled (an open dead letter: a parked agent) or lags (events wait on a checkpoint that has not moved for READY_MAX_LAG_SECONDS, default 30), and this replica holds every lease it should',
  })
  @ApiReply(200, 'HealthReady')
  @ApiErrors({
    503: 'unavailable: details.reason unreachable, projection_stalled (an agent parked by a poison event: the projection and position), projection_lagging, or lease_missing (this replica holds no lease it should)',
  })
  async ready(): Promise<HealthReport & { projections: unknown[] }> {
    const report = await runHealthChecks({
      event_store: () => this.store.ping(),
      postgres: () => pingPostgres(this.pool),
    });
    if (report.status !== 'ok') {
      const down = Object.keys(report.checks).filter((name) => report.checks[name] === 'down');
      throw new ApiError('unavailable', `${down.join(', ')} unreachable`, { reason: 'unreachable', ...report });
    }
    const head = await this.store.headPosition();
    const projections = await projectionReadiness(this.pool, head, this.maxLagSeconds);
    const blocked = projections.find((p) => !p.ready);
    if (blocked) {
      const position = blocked.reason === 'projection_stalled' ? blocked.stalled_at! : blocked.checkpoint;
      const what =
        blocked.reason === 'projection_stalled'
          ? `stalled at position ${position} (${blocked.parked_agents} agent(s) parked by a poison event)`
          : `lagging at position ${position}, ${blocked.idle_seconds} s without moving (head ${blocked.head})`;
      throw new ApiError('unavailable', `projection ${blocked.projection} ${what}`, {
        reason: blocked.reason,
        projection: blocked.projection,
        position,
        ...report,
        projections,
      });
    }
    const missing = await this.missingLease();
    if (missing !== null)
      throw new ApiError('unavailable', `this replica holds no lease it should: ${missing}`, {
        reason: 'lease_missing',
        ...report,
        projections,
      });
    return { ...report, projections };
  }

  /** Null when every lease this replica should hold is held (or there are none to hold). */
  private async missingLease(): Promise<string | null> {
    try {
      return (await this.leases?.missingLease()) ?? (await this.keepers?.missingLease()) ?? null;
    } catch {
      return 'the lease check failed';
    }
  }
}
