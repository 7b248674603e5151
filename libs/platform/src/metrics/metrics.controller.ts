import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public, REQUEST_AUTHORIZER, type RequestAuthorizer } from '@app/application';
import { ApiErrors, ApiTextReply } from '@app/contracts';
import { METRICS_SCRAPE, type MetricsScrape } from './metrics-scrape';
import { admitScrape, type MetricsExposure } from './metrics-access';

export const METRICS_EXPOSURE = Symbol('METRICS_EXPOSURE');

/** GET /metrics on the main port (the own-port listener is MetricsServer). */
@ApiTags('metrics')
@ApiBearerAuth()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(METRICS_SCRAPE) private readonly scrape: MetricsScrape,
    @Inject(METRICS_EXPOSURE) private readonly exposure: MetricsExposure,
    @Inject(REQUEST_AUTHORIZER) private readonly authorizer: RequestAuthorizer,
  ) {}

  @Get()
  // Its own check below: an admin token, or METRICS_TOKEN instead, or nothing here when METRICS_PORT is set.
  @Public()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary:
      'Prometheus metrics (text format 0.0.4): an admin token; with METRICS_TOKEN set, that bearer instead; with METRICS_PORT set, served there without a token (404 here)',
  })
  @ApiTextReply('text/plain', 'the Prometheus text exposition (401 without the token it asks for)')
  @ApiErrors({
    403: 'forbidden: not an admin token',
    404: 'not_found: METRICS_PORT is set (metrics are served there)',
  })
  async metrics(@Headers('authorization') authorization: string | undefined): Promise<string> {
    admitScrape(this.exposure, authorization, this.authorizer);
    return this.scrape();
  }
}
