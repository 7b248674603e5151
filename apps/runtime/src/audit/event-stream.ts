import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { StoredEvent } from '@app/event-store';
import { toEventItem } from '@app/application/audit/agent-events.reader';
import { SchemaVersionError } from '@app/application/events/upcasters';
import { ApiError, bigintReplacer, classifyError } from '@app/platform';

export const KEEP_ALIVE_MS = 15_000;

/** Open server-sent-event streams: ended before the HTTP server closes (it would wait on them forever). */
@Injectable()
export class EventStreams implements BeforeApplicationShutdown {
  private readonly open = new Map<AbortController, Promise<void>>();

  /** Streams being served now. */
  get openCount(): number {
    return this.open.size;
  }

  /** Runs `pump` until the client goes away, the app shuts down or the events end. */
  async serve(raw: ServerResponse, events: (signal: AbortSignal) => AsyncIterable<StoredEvent>): Promise<void> {
    const abort = new AbortController();
    const done = pump(raw, events(abort.signal), abort);
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

const frame = (event: StoredEvent): string =>
  `id: ${event.revision.toString()}\nevent: ${event.type}\ndata: ${JSON.stringify(toEventItem(event), bigintReplacer)}\n\n`;

async function pump(raw: ServerResponse, events: AsyncIterable<StoredEvent>, abort: AbortController): Promise<void> {
  raw.on('close', () => abort.abort());
  raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
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
