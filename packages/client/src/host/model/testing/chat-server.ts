/** A local HTTP server (127.0.0.1, a free port) that plays scripted Chat Completions answers and records requests. */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply = { status: number; headers?: Record<string, string>; body: unknown } | 'hang';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON. */
  body: unknown;
  /** Resolves when the client closed the connection before an answer (a hung reply). */
  closed: Promise<void>;
}

export class ChatServer {
  readonly requests: RecordedRequest[] = [];
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private readonly hung: ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    private readonly replies: Reply[],
  ) {}

  /** Starts a server that answers its requests with `replies`, in order (a 500 when they run out). */
  static async start(replies: Reply[]): Promise<ChatServer> {
    let self: ChatServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self?.handle(req.method ?? '', req.url ?? '', req.headers, chunks, res));
    });
    self = new ChatServer(server, replies);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  /** The base URL an adapter is given (`.../v1`). */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(method: string, url: string, headers: IncomingHttpHeaders, chunks: Buffer[], res: ServerResponse) {
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text
    }
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    this.requests.push({ method, url, headers, body, closed });
    for (const w of this.waiters.filter((x) => x.count <= this.requests.length)) w.resolve();
    const reply = this.replies[this.requests.length - 1] ?? { status: 500, body: { error: { message: 'no reply' } } };
    if (reply === 'hang') {
      this.hung.push(res);
      return;
    }
    const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(payload);
  }
}
