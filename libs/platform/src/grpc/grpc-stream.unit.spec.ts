import { EventEmitter } from 'node:events';
import { Metadata, status as GrpcStatus, type ServerErrorResponse, type ServerWritableStream } from '@grpc/grpc-js';
import pino from 'pino';
import { ApiError } from '@app/core';
import type { RequestAuthorizer } from '@app/application';
import { until } from '@app/event-store/testing';
import { createServerStreamHandler, OpenGrpcStreams, pumpStream, type GrpcStreamContext } from './grpc-stream';

/** A grpc-js server stream stand-in: `write` answers `accepts()` (false: its buffer is full). */
class FakeCall extends EventEmitter {
  readonly written: unknown[] = [];
  readonly errors: ServerErrorResponse[] = [];
  ended = false;
  headersSent = false;
  cancelled = false;
  metadata = new Metadata();
  constructor(
    readonly request: unknown = { agent_id: 'a-1' },
    private readonly accepts: () => boolean = () => true,
  ) {
    super();
    this.on('error', (error: ServerErrorResponse) => this.errors.push(error));
  }
  write(message: unknown): boolean {
    this.written.push(message);
    return this.accepts();
  }
  end(): void {
    this.ended = true;
  }
  sendMetadata(): void {
    this.headersSent = true;
  }
  getPeer(): string {
    return 'ipv4:127.0.0.1:5000';
  }
  cancel(): void {
    this.cancelled = true;
    this.emit('cancelled', 'cancelled');
  }
}

/** Counts how many items were pulled, and whether the iterator was closed. */
function counting(limit = Infinity) {
  const state = { pulled: 0, closed: false };
  async function* items() {
    try {
      while (state.pulled < limit) yield ++state.pulled;
    } finally {
      state.closed = true;
    }
  }
  return { state, items: items() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('pumpStream', () => {
  it('pulls nothing more while the call is full, and goes on when it drains', async () => {
    let room = 0; // writes the call takes before its buffer is full again
    const call = new FakeCall(undefined, () => room-- > 0);
    const { state, items } = counting();
    const abort = new AbortController();
    const pumping = pumpStream(call, items, (item) => ({ item }), abort.signal);
    for (let i = 0; i < 20; i++) await tick();
    expect(state.pulled).toBe(1);
    expect(call.written).toEqual([{ item: 1 }]);
    room = 4;
    call.emit('drain');
    for (let i = 0; i < 20; i++) await tick();
    expect(state.pulled).toBe(6);
    expect(call.written).toHaveLength(6);
    abort.abort();
    await pumping;
    expect(state.closed).toBe(true);
    expect(state.pulled).toBe(6);
  });

  it('closes the iterator when the items end', async () => {
    const call = new FakeCall();
    const { state, items } = counting(3);
    await pumpStream(call, items, (item) => item, new AbortController().signal);
    expect(call.written).toEqual([1, 2, 3]);
    expect(state.closed).toBe(true);
  });
});

describe('createServerStreamHandler', () => {
  const authorizer: RequestAuthorizer = {
    authorize: (header, requirement) => {
      if (requirement.kind === 'public') return null;
      if (header !== 'Bearer ok') throw new ApiError('unauthorized', 'no');
      return { tokenName: 'token-1', agents: ['a-1'], admin: false };
    },
  };
  const deps = { authorizer, logger: pino({ level: 'silent' }) };
  const withToken = (call: FakeCall) => {
    call.metadata.set('authorization', 'Bearer ok');
    return call;
  };
  const serve = (call: FakeCall, invoke: (request: unknown, context: GrpcStreamContext) => unknown) => {
    const streams = new OpenGrpcStreams();
    const handler = createServerStreamHandler(deps, '/t.S/Watch', {}, invoke as never, streams);
    handler(call as unknown as ServerWritableStream<unknown, unknown>);
    return streams;
  };

  it('refuses before the handler runs, with the envelope, and sends no headers', async () => {
    const call = new FakeCall();
    const invoke = jest.fn();
    const streams = serve(call, invoke);
    await until(() => call.errors.length === 1, 1000, 'the refusal');
    expect(invoke).not.toHaveBeenCalled();
    expect(call.headersSent).toBe(false);
    expect(call.errors[0]!.code).toBe(GrpcStatus.UNAUTHENTICATED);
    expect(call.errors[0]!.metadata!.get('error-code')).toEqual(['unauthorized']);
    await until(() => streams.count === 0, 1000, 'the stream to be forgotten');
  });

  it('sends headers once the handler returned its items, writes them (bigint as strings), then ends OK', async () => {
    const call = withToken(new FakeCall());
    serve(call, async function* () {
      yield { revision: 1n };
      yield { revision: 2n };
    });
    await until(() => call.ended, 1000, 'the end');
    expect(call.headersSent).toBe(true);
    expect(call.written).toEqual([{ revision: '1' }, { revision: '2' }]);
    expect(call.errors).toEqual([]);
  });

  it('aborts the signal when the client cancels, closes the items and forgets the stream', async () => {
    const call = withToken(new FakeCall(undefined, () => false));
    const { state, items } = counting();
    let signal: AbortSignal | undefined;
    const streams = serve(call, (_request, context) => {
      signal = context.signal;
      return items;
    });
    await until(() => state.pulled > 0, 1000, 'the first item');
    expect(streams.count).toBe(1);
    call.cancel();
    await until(() => streams.count === 0, 1000, 'the stream to end');
    expect(signal?.aborted).toBe(true);
    expect(state.closed).toBe(true);
    expect(call.ended).toBe(false);
  });

  it('ends every open stream with UNAVAILABLE on shutdown, once its items are closed', async () => {
    const call = withToken(new FakeCall(undefined, () => false));
    const { state, items } = counting();
    const streams = serve(call, () => items);
    await until(() => state.pulled > 0, 1000, 'the first item');
    await streams.endAll();
    expect(state.closed).toBe(true);
    expect(streams.count).toBe(0);
    expect(call.errors.map((error) => [error.code, error.metadata!.get('error-code')[0]])).toEqual([
      [GrpcStatus.UNAVAILABLE, 'unavailable'],
    ]);
  });

  it('ends the call with the envelope of an error thrown while streaming', async () => {
    const call = withToken(new FakeCall());
    serve(call, async function* () {
      yield { n: 1 };
      throw new ApiError('internal', 'unreadable event');
    });
    await until(() => call.errors.length === 1, 1000, 'the error');
    expect(call.written).toEqual([{ n: 1 }]);
    expect(call.errors[0]!.code).toBe(GrpcStatus.INTERNAL);
  });
});
