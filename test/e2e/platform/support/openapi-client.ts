import type { TestApp } from '../../../support/app';
import type { OpenApiValidator } from '../../../support/openapi';

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface CallReply {
  status: number;
  body: any;
}

/**
 * Calls one route of the document by its template and checks the reply against the schema the
 * document gives for that route and status (a status or media type it does not list fails too).
 */
export function documentedClient(app: TestApp, validator: OpenApiValidator, defaultToken: string) {
  const urlOf = (template: string, options: CallOptions): string => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams(options.query ?? {}).toString();
    return `${app.baseUrl}${path}${query ? `?${query}` : ''}`;
  };
  const init = (method: string, options: CallOptions): RequestInit => {
    const token = options.token === undefined ? defaultToken : options.token;
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const { body } = options;
    if (body !== undefined) headers['content-type'] = typeof body === 'string' ? 'text/markdown' : 'application/json';
    return {
      method,
      headers: { ...headers, ...options.headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
  };

  async function call(method: string, template: string, options: CallOptions = {}): Promise<CallReply> {
    const response = await fetch(urlOf(template, options), init(method, options));
    const contentType = response.headers.get('content-type');
    const text = await response.text();
    const body = contentType?.startsWith('application/json') && text ? JSON.parse(text) : text;
    validator.check(method, template, response.status, contentType, body);
    return { status: response.status, body };
  }

  /** A 2xx reply, or the failure says which route answered what. */
  async function ok(method: string, template: string, options: CallOptions = {}): Promise<any> {
    const reply = await call(method, template, options);
    if (reply.status >= 300) throw new Error(`${method} ${template}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  /** The first event of a server-sent event stream (comments and `retry:` skipped), then the stream is closed. */
  async function firstFrame(template: string, options: CallOptions = {}): Promise<{ event: string; data: any }> {
    const controller = new AbortController();
    const response = await fetch(urlOf(template, options), { ...init('GET', options), signal: controller.signal });
    validator.check('GET', template, response.status, response.headers.get('content-type'), undefined);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const dataBlock = () => buffered.split('\n\n').find((block, i, all) => i < all.length - 1 && /^data:/m.test(block));
    try {
      while (dataBlock() === undefined) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`${template}: the stream ended before a frame`);
        buffered += decoder.decode(value, { stream: true });
      }
    } finally {
      controller.abort();
    }
    const frame = dataBlock()!.split('\n');
    const field = (name: string) =>
      frame
        .find((line) => line.startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    return { event: field('event') ?? 'message', data: JSON.parse(field('data') ?? 'null') };
  }

  return { call, ok, firstFrame };
}
