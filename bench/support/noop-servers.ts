import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastify from 'fastify';
import { fork } from 'node:child_process';
import type { Server as NodeServer } from 'node:net';
import type { CpuClock } from './load';

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

/** Figure 3's two no-op servers in a process of their own, and that process's CPU clock. */
export interface NoopServers {
  bare: Server;
  nest: Server;
  /** The CPU time (user + system, µs) the servers' process has used so far. */
  cpu: CpuClock;
  close(): Promise<void>;
}

type ToChild = { id: number; cpu: true };
type FromChild = { ready: { bare: string; nest: string } } | { id: number; cpuUs: number } | { error: string };

/**
 * Starts bare Fastify and the Nest no-op in a child process (this file, through ts-node as the
 * bench runs). At tens of thousands of requests per second they make most of figure 3's garbage:
 * in the bench process, beside the runtime, it was collected during the command's runs.
 */
export async function startNoopServers(): Promise<NoopServers> {
  const child = fork(__filename, [], {
    execArgv: ['-r', require.resolve('./no-repl.js'), '-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (cpuUs: number) => void>();
  let nextId = 0;
  let failed: (error: Error) => void = () => undefined;
  const ready = new Promise<{ bare: string; nest: string }>((resolve, reject) => {
    failed = reject;
    child.on('message', (message: FromChild) => {
      if ('ready' in message) resolve(message.ready);
      else if ('error' in message) reject(new Error(`no-op servers: ${message.error}`));
      else waiting.get(message.id)?.(message.cpuUs);
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code) => failed(new Error(`no-op servers exited (${code}) before they were ready`)));
  const urls = await ready;
  const server = (url: string): Server => ({ url, close: async () => undefined });
  return {
    bare: server(urls.bare),
    nest: server(urls.nest),
    cpu: () =>
      new Promise<number>((resolve, reject) => {
        if (!child.connected) return reject(new Error('no-op servers: the process is gone'));
        const id = ++nextId;
        waiting.set(id, (cpuUs) => {
          waiting.delete(id);
          resolve(cpuUs);
        });
        child.send({ id, cpu: true } satisfies ToChild);
      }),
    async close() {
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The child: starts both servers, answers CPU queries, and closes them when the bench disconnects. */
async function serve(): Promise<void> {
  const send = (message: FromChild) => process.send?.(message);
  try {
    const servers = [await bareFastify(), await nestNoop()];
    process.on('message', (message: ToChild) => {
      const used = process.cpuUsage();
      send({ id: message.id, cpuUs: used.user + used.system });
    });
    process.once('disconnect', () => {
      void Promise.allSettled(servers.map((s) => s.close())).then(() => process.exit(0));
    });
    send({ ready: { bare: servers[0]!.url, nest: servers[1]!.url } });
  } catch (error) {
    send({ error: String((error as Error)?.stack ?? error) });
    process.exit(1);
  }
}

if (require.main === module) void serve();
