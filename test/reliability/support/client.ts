import { request as httpRequest } from 'node:http';
import { AckLog, type CommandRecord } from './ack-log';

export interface Reply {
  status: number | null;
  body: any;
  /** Network failure (reset, refused, timeout): the outcome is unknown. */
  error?: string;
  ms: number;
}

export interface SendOptions {
  /** The Idempotency-Key; a fresh one when absent. Retries pass the same key. */
  key?: string;
  /** A new TCP connection of its own (no keep-alive pool): two requests on two connections. */
  freshConnection?: boolean;
  /** False for commands that may append nothing (the checker then expects no events). */
  appends?: boolean;
  timeoutMs?: number;
}

let keys = 0;
/** A key no other run uses (process id, time, counter). */
export function freshKey(prefix = 'k'): string {
  keys += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${keys}`;
}

/**
 * The test client: sends commands to the service and logs each one in the AckLog (key, agent,
 * outcome, reply revision). Queries go through `get` and are not logged.
 */
export class ReliabilityClient {
  constructor(
    public baseUrl: string,
    private readonly token: string,
    readonly log: AckLog = new AckLog(),
  ) {}

  async command(
    agent: string,
    method: string,
    path: string,
    body: unknown,
    options: SendOptions = {},
  ): Promise<Reply & { record: CommandRecord }> {
    const key = options.key ?? freshKey();
    const reply = await this.send(method, path, body, { 'idempotency-key': key }, options);
    const record = this.log.record(
      { key, agent, method, path, body, appends: options.appends ?? true },
      { status: reply.status, body: reply.body },
    );
    return { ...reply, record };
  }

  /** Sends a logged command again with its key and body (a client retry). */
  retry(record: CommandRecord, options: SendOptions = {}) {
    return this.command(record.agent, record.method, record.path, record.body, {
      ...options,
      key: record.key,
      appends: record.appends,
    });
  }

  get(path: string, options: SendOptions = {}): Promise<Reply> {
    return this.send('GET', path, undefined, {}, options);
  }

  post(path: string, body: unknown, options: SendOptions = {}): Promise<Reply> {
    return this.send('POST', path, body, {}, options);
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
    options: SendOptions,
  ): Promise<Reply> {
    const all: Record<string, string> = { authorization: `Bearer ${this.token}`, ...headers };
    if (body !== undefined) all['content-type'] = 'application/json';
    const text = body === undefined ? undefined : JSON.stringify(body);
    const started = Date.now();
    try {
      const { status, raw } = options.freshConnection
        ? await ownConnection(`${this.baseUrl}${path}`, method, all, text, options.timeoutMs ?? 20_000)
        : await pooled(`${this.baseUrl}${path}`, method, all, text, options.timeoutMs ?? 20_000);
      return { status, body: parse(raw), ms: Date.now() - started };
    } catch (error) {
      return {
        status: null,
        body: undefined,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        ms: Date.now() - started,
      };
    }
  }
}

async function pooled(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
) {
  const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
  return { status: response.status, raw: await response.text() };
}

function ownConnection(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; raw: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers: { ...headers, connection: 'close' }, agent: false, timeout: timeoutMs },
      (res) => {
        let raw = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (raw += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, raw }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

function parse(raw: string): unknown {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
