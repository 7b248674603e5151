import { errorFromEnvelope, codeOfStatus, parseRetryAfter, RuntimeApiError, RuntimeNetworkError } from '../errors';
import type { CallContext, Operation, Transport } from '../operation';

export interface HttpTransportOptions {
  /** The runtime's HTTP base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  token?: string;
  /** Per attempt; a timeout is a network error (retried). */
  requestTimeoutMs: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/** The HTTP face (`/v1`, JSON): one fetch per attempt. */
export class HttpTransport implements Transport {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpTransportOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
  }

  async send(operation: Operation, context: CallContext): Promise<unknown> {
    const { http } = operation;
    const url = new URL(this.baseUrl + http.path);
    for (const [key, value] of Object.entries(http.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    if (context.minPosition !== undefined) url.searchParams.set('min_position', context.minPosition);
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers };
    if (this.options.token && !operation.public) headers.authorization = `Bearer ${this.options.token}`;
    if (context.idempotencyKey !== undefined) headers['idempotency-key'] = context.idempotencyKey;
    if (context.correlationId !== undefined) headers['x-correlation-id'] = context.correlationId;
    let body: string | undefined;
    if (http.body !== undefined) {
      body = http.text ? String(http.body) : JSON.stringify(http.body);
      headers['content-type'] = http.text ? 'text/markdown' : 'application/json';
    }
    const timeoutMs = this.options.requestTimeoutMs + (operation.longPollMs ?? 0);
    const response = await this.fetchWithTimeout(
      url,
      { method: http.method, headers, body },
      timeoutMs,
      context.signal,
    );
    return readReply(response, http.replyText === true);
  }

  close(): void {
    // fetch keeps no connection this transport owns.
  }

  private async fetchWithTimeout(
    url: URL,
    init: RequestInit,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await this.fetchImpl(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      // The caller's abort is the caller's: not a network failure, never retried.
      if (signal?.aborted) throw signal.reason;
      throw new RuntimeNetworkError(`${init.method} ${url.pathname}: ${describe(error)}`, { cause: error });
    }
  }
}

/** A reply's body, or its refusal as a RuntimeApiError. */
export async function readReply(response: Response, asText: boolean): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new RuntimeNetworkError(`the reply was cut: ${describe(error)}`, { cause: error });
  }
  if (response.ok) return asText ? text : text === '' ? undefined : JSON.parse(text);
  throw refusalOf(response, text);
}

/** The refusal of a non-2xx reply: its envelope, or a code from the status when it carries none. */
export function refusalOf(response: Response, text: string): RuntimeApiError {
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return (
    errorFromEnvelope(body, response.status, retryAfterMs) ??
    new RuntimeApiError({
      code: codeOfStatus(response.status),
      status: response.status,
      message: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      retryAfterMs,
    })
  );
}

export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
