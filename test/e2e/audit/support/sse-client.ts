/** A minimal server-sent-events reader over fetch, for e2e specs. */
export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The next event frame (comments skipped); rejects after `timeoutMs` or when the stream ends. */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const frames: SseFrame[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  const notify = () => waiters.splice(0).forEach((wake) => wake());
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += chunk.value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = parseFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (frame) frames.push(frame);
        }
        notify();
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      notify();
    }
  })();
  const next = async (timeoutMs = 5000): Promise<SseFrame> => {
    const deadline = Date.now() + timeoutMs;
    while (frames.length === 0) {
      if (done) throw new Error('the event stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return frames.shift()!;
  };
  return { status: response.status, headers: response.headers, next, ended, close: () => abort.abort() };
}

function parseFrame(text: string): SseFrame | null {
  const frame: SseFrame = { data: '' };
  let hasData = false;
  for (const line of text.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') {
      frame.data = hasData ? `${frame.data}\n${value}` : value;
      hasData = true;
    } else if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
  }
  return hasData ? frame : null;
}
