import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { StoredEvent } from '@app/event-store';
import { toEventItem } from '@app/application';
import { SchemaVersionError, ApiError } from '@app/core';
import { bigintReplacer, classifyError } from '@app/platform';

export const KEEP_ALIVE_MS = 15_000;

/** Open server-sent-event streams: ended before the HTTP server closes (it would wait on them forever). */
@Injectable()
export class EventStreams implements BeforeApplicationShutdown {
  private readonly open = new Map<AbortController, Promise<void>>();

  /** Streams being served now. */
  get openCount(): number {
    return this.open.size;
  }

  /** Runs `pump` until the client goes away, the app shuts down or the frames end. */
  async serve(raw: ServerResponse, frames: (signal: AbortSignal) => AsyncIterable<SseFrame>): Promise<void> {
    const abort = new AbortController();
    const done = pump(raw, frames(abort.signal), abort);
    this.open.set(abort, done);
    try {
      await done;
    } finally {
      this.open.delete(abort);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const abort of this.open.keys()) abort.abort();
    await Promise.allSettled([...this.open.values()]);
  }
}

/** One server-sent event: `id` is what a reconnecting client sends back as Last-Event-ID. */
export type SseFrame = { id: string; event: string; data: unknown };

/** An agent's stored event as a frame: id = its revision, event = its type, data = the events route's item. */
export async function* eventFrames(events: AsyncIterable<StoredEvent>): AsyncGenerator<SseFrame> {
  for await (const event of events)
    yield { id: event.revision.toString(), event: event.type, data: toEventItem(event) };
}

const frame = ({ id, event, data }: SseFrame): string =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data, bigintReplacer)}\n\n`;

async function pump(raw: ServerResponse, events: AsyncIterable<SseFrame>, abort: AbortController): Promise<void> {
  raw.on('close', () => abort.abort());
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write(': connected\nretry: 3000\n\n');
  const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  try {
    for await (const event of events) {
      if (abort.signal.aborted) break;
      if (!raw.write(frame(event))) await drained(raw, abort.signal);
    }
  } catch (error) {
    if (!abort.signal.aborted) raw.write(`event: error\ndata: ${JSON.stringify({ error: errorBody(error) })}\n\n`);
  } finally {
    clearInterval(keepAlive);
    abort.abort();
    raw.end();
  }
}

async function drained(raw: ServerResponse, signal: AbortSignal): Promise<void> {
  await once(raw, 'drain', { signal }).catch(() => undefined);
}

function errorBody(error: unknown): { code: string; message: string } {
  const classified = classifyError(wireError(error));
  return { code: classified.code, message: classified.message };
}

/** An event this code cannot read is a server fault, but its message must reach the caller. */
export function wireError(error: unknown): unknown {
  if (!(error instanceof SchemaVersionError)) return error;
  return new ApiError('internal', error.message, { reason: error.code, type: error.eventType });
}
