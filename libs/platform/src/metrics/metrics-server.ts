import { createServer, type Server } from 'node:http';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, type Logger } from '@app/core';
import { dialableHost, hostPort } from '../config/listen-address';
import { METRICS_SCRAPE, type MetricsScrape } from './metrics-scrape';

/**
 * METRICS_PORT: GET /metrics on a listener of its own, without a token (a port the operator
 * keeps to the scraper's network). Anything else there is a 404; it binds to HOST like the rest.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private server: Server | null = null;

  constructor(
    @Inject(METRICS_SCRAPE) private readonly scrape: MetricsScrape,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Starts listening; returns where a client on this machine reaches it (`http://host:port`). */
  async listen(host: string, port: number): Promise<string> {
    const server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      this.scrape().then(
        (body) => response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(body),
        (error: unknown) => {
          this.logger.error({ err: error }, 'metrics: scrape failed');
          response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
        },
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    return `http://${hostPort(dialableHost(host), bound)}`;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
