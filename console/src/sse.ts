import { authHeaders, toApiError } from './api';

export type StreamEvent = { id: string | null; event: string; data: string };
export type StreamStatus = 'connecting' | 'live' | 'retrying' | 'closed';

/**
 * Server-sent events over fetch, because EventSource cannot send an Authorization header and
 * the token must never go into a URL. Parses the text/event-stream format (id, event, data,
 * comments) and yields one event per blank-line-terminated block.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = parseBlock(block);
        if (event) yield event;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function parseBlock(block: string): StreamEvent | null {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { id, event, data: data.join('\n') } : null;
}

export type FollowOptions = {
  token: string;
  url: string;
  /** Resume after this event id (a stream revision); sent as Last-Event-ID, never in the URL. */
  lastEventId: string | null;
  signal: AbortSignal;
  onEvent(event: StreamEvent): void;
  onStatus(status: StreamStatus): void;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Follows a stream until `signal` aborts, reconnecting (with Last-Event-ID) after drops; a 401/403/404 ends it. */
export async function followEventStream(options: FollowOptions): Promise<void> {
  let lastEventId = options.lastEventId;
  for (let attempt = 0; !options.signal.aborted; attempt++) {
    options.onStatus(attempt === 0 ? 'connecting' : 'retrying');
    try {
      const headers: Record<string, string> = { ...authHeaders(options.token), accept: 'text/event-stream' };
      if (lastEventId !== null) headers['last-event-id'] = lastEventId;
      const response = await fetch(options.url, { headers, signal: options.signal, cache: 'no-store' });
      if (!response.ok || !response.body) {
        const error = await toApiError(response);
        if ([401, 403, 404].includes(error.status)) break;
        throw error;
      }
      options.onStatus('live');
      attempt = 0;
      for await (const event of readEventStream(response.body)) {
        if (event.id !== null) lastEventId = event.id;
        options.onEvent(event);
      }
    } catch {
      if (options.signal.aborted) break;
    }
    await sleep(Math.min(10_000, 500 * 2 ** attempt), options.signal);
  }
  options.onStatus('closed');
}
