import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { pingPostgres, POSTGRES_POOL, projectionHealth } from '@app/read-models';
import { ApiError } from '@app/core';
import { Public } from '@app/application';
import { runHealthChecks, type HealthReport } from './health-report';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(POSTGRES_POOL) private readonly pool: Pool,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and readiness: event store and Postgres reachable' })
  @ApiOkResponse({
    description:
      '{status: "ok", checks: {event_store: "up", postgres: "up"}, projection_lag: {projection, checkpoint, head, caught_up, stalled_at} | null}',
  })
  @ApiServiceUnavailableResponse({ description: 'error envelope, code unavailable, details = the report' })
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
}
