import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastify from 'fastify';
import type { Server as NodeServer } from 'node:net';

export interface Server {
  url: string;
  close(): Promise<void>;
}

/** The loopback URL of a server listening on a port the OS chose. */
export function urlOf(server: { address(): ReturnType<NodeServer['address']> }): string {
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** The bare platform: a plain Fastify server with one no-op route, no Nest. */
export async function bareFastify(): Promise<Server> {
  const app = fastify({ logger: false });
  app.get('/noop', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: urlOf(app.server), close: () => app.close() };
}

@Controller()
class NoopController {
  @Get('noop')
  noop() {
    return { ok: true };
  }
}

@Module({ controllers: [NoopController] })
class NoopModule {}

/** The same no-op route as a Nest controller on Nest's Fastify adapter (no guards, pipes or interceptors). */
export async function nestNoop(): Promise<Server> {
  const app = await NestFactory.create<NestFastifyApplication>(NoopModule, new FastifyAdapter({ logger: false }), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  return { url: urlOf(app.getHttpServer()), close: () => app.close() };
}
