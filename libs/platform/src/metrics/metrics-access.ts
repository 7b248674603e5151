import { hash, timingSafeEqual } from 'node:crypto';
import { parseBearer, type RequestAuthorizer } from '@app/application';
import { ApiError } from '@app/core';

/** Where GET /metrics is served and to whom (ADR 0032). */
export type MetricsExposure =
  /** METRICS_PORT: a listener of its own, no token; the main port answers 404. */
  | { kind: 'own_port' }
  /** METRICS_TOKEN: the main port, to that bearer only (compared in constant time). */
  | { kind: 'token'; digest: Buffer }
  /** Neither: the main port, to admin tokens. */
  | { kind: 'admin' };

const digest = (token: string): Buffer => hash('sha256', token, 'buffer');

export function metricsExposure(config: { metricsPort?: number; metricsToken?: string }): MetricsExposure {
  if (config.metricsPort !== undefined) return { kind: 'own_port' };
  if (config.metricsToken !== undefined) return { kind: 'token', digest: digest(config.metricsToken) };
  return { kind: 'admin' };
}

/** Throws the refusal of a scrape on the main port, or returns when it may read the metrics. */
export function admitScrape(
  exposure: MetricsExposure,
  authorization: string | undefined,
  authorizer: RequestAuthorizer,
): void {
  if (exposure.kind === 'own_port')
    throw new ApiError('not_found', 'metrics are served on METRICS_PORT', { resource: 'metrics' });
  if (exposure.kind === 'admin') {
    authorizer.authorize(authorization, { kind: 'admin' });
    return;
  }
  const token = parseBearer(authorization);
  if (token === null || !timingSafeEqual(digest(token), exposure.digest))
    throw new ApiError('unauthorized', 'GET /metrics needs the METRICS_TOKEN bearer');
}
