import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Metadata, status } from '@grpc/grpc-js';
import {
  BACKWARDS,
  END,
  EVENT_TYPE,
  START,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendToStreamOptions,
  type EventData,
  type Filter,
  type ReadPosition,
  type ReadStreamOptions,
  type ResolvedEvent,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import { StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { ReadStream } from '@eventstore/db-client/dist/streams/utils/ReadStream';
import { Subscription } from '@eventstore/db-client/dist/streams/utils/Subscription';
import { convertGrpcEvent } from '@eventstore/db-client/dist/utils/convertGrpcEvent';
import type { EsdbClient, EsdbReadAllOptions, EsdbRead, EsdbSubscription } from './eventstoredb-client';

/**
 * Spec support: an EventStoreDB server behind the official client's boundary. Its reads and
 * subscriptions answer with the gRPC messages a server sends (the client's generated ReadResp
 * types) through the client's own ReadStream and Subscription, so the client's conversion,
 * error mapping and checkpoint plumbing run for real; only the transport is faked. Like a
 * server it filters $all server-side, sends checkpoints every `checkpointInterval` search
 * windows, may report no positions in stream reads (unsigned -1), and can drop a subscription.
 */
export interface FakeRecord {
  stream: string;
  id: string;
  type: string;
  revision: bigint;
  position: bigint;
  data: unknown;
  metadata: unknown;
}

export interface FakeServerOptions {
  /** Stream reads carry positions (newer servers) or report none, as unsigned -1 (older ones). */
  streamReadPositions?: 'present' | 'none';
  /** The server's search window of a filtered subscription (events scanned per checkpoint step). */
  searchWindow?: number;
}

const NO_POSITION = '18446744073709551615';
const STEP = 128n;

export class FakeEsdbServer {
  readonly log: FakeRecord[] = [];
  /** How many $all records each read or subscription made the server look at, and send. */
  readonly calls: Array<{ kind: string; from: ReadPosition | bigint | undefined; scanned: number; sent: number }> = [];
  private readonly live = new Set<{ stream: PassThrough; tick: () => void }>();
  private readonly lengths = new Map<string, number>();
  private next = 1000n;

  constructor(private readonly options: FakeServerOptions = {}) {}

  /** Writes directly (e.g. system events: `$stats-...`, `$metadata`), as the server itself does. */
  write(
    stream: string,
    type: string,
    data: unknown = {},
    id: string = randomUUID(),
    metadata: unknown = {},
  ): FakeRecord {
    const revision = BigInt(this.lengths.get(stream) ?? 0);
    this.lengths.set(stream, Number(revision) + 1);
    const record = { stream, id, type, revision, position: this.next, data, metadata };
    this.next += STEP;
    this.log.push(record);
    for (const subscription of this.live) subscription.tick();
    return record;
  }

  /** Every live subscription's connection is lost (UNAVAILABLE, as when a node goes away). */
  dropSubscriptions(): void {
    for (const { stream } of [...this.live]) {
      const error = Object.assign(new Error('14 UNAVAILABLE: connection lost'), {
        code: status.UNAVAILABLE,
        details: 'connection lost',
        metadata: new Metadata(),
      });
      stream.emit('error', error);
    }
    this.live.clear();
  }

  readonly client: EsdbClient = {
    appendToStream: async (stream: string, events: EventData[], options: AppendToStreamOptions) => {
      const existing = this.log.filter((r) => r.stream === stream);
      const current = existing.length === 0 ? 'no_stream' : BigInt(existing.length - 1);
      if (events.every((e) => existing.some((r) => r.id === e.id))) {
        // An idempotent repeat: the server answers success without a position.
        return { success: true, nextExpectedRevision: existing.length === 0 ? -1n : BigInt(existing.length - 1) };
      }
      const expected = options.expectedRevision ?? 'any';
      const ok =
        expected === 'any' ||
        (expected === 'no_stream' && current === 'no_stream') ||
        (expected === 'stream_exists' && current !== 'no_stream') ||
        expected === current;
      if (!ok) throw new WrongExpectedVersionError(undefined, { streamName: stream, expected, current });
      let last: FakeRecord | undefined;
      for (const event of events) {
        const { data, metadata } = event as { data: unknown; metadata?: unknown };
        last = this.write(stream, event.type, data, event.id, metadata ?? {});
      }
      return { success: true, nextExpectedRevision: last!.revision, position: this.positionOf(last!) };
    },

    readStream: (stream: string, options: ReadStreamOptions): EsdbRead<ResolvedEvent> => {
      let records = this.log.filter((r) => r.stream === stream);
      const exists = records.length > 0;
      const backwards = options.direction === BACKWARDS;
      const from = options.fromRevision ?? (backwards ? END : START);
      if (typeof from === 'bigint')
        records = records.filter((r) => (backwards ? r.revision <= from : r.revision >= from));
      if (backwards) records.reverse();
      records = records.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER));
      const withPositions = this.options.streamReadPositions !== 'none';
      const messages = exists ? records.map((r) => eventMessage(r, withPositions)) : [streamNotFound(stream)];
      return new ReadStream<ResolvedEvent>(grpcStream(messages), convertGrpcEvent, {});
    },

    readAll: (options: EsdbReadAllOptions): EsdbRead<AllStreamResolvedEvent> => {
      const backwards = options.direction === BACKWARDS;
      const from = options.fromPosition ?? (backwards ? END : START);
      let records = [...this.log];
      if (typeof from === 'object')
        records = records.filter((r) => (backwards ? r.position <= from.commit : r.position >= from.commit));
      if (backwards) records.reverse();
      const call = { kind: options.filter ? 'readAll filtered' : 'readAll', from, scanned: 0, sent: 0 };
      this.calls.push(call);
      const wanted = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const messages: ReadResp[] = [];
      for (const record of records) {
        if (call.sent >= wanted) break;
        call.scanned += 1;
        if (options.filter && !matches(options.filter, record)) continue;
        call.sent += 1;
        messages.push(eventMessage(record, true));
      }
      return new ReadStream<AllStreamResolvedEvent>(grpcStream(messages), convertGrpcEvent, {});
    },

    subscribeToAll: (options: SubscribeToAllOptions): EsdbSubscription => {
      const from = options.fromPosition ?? START;
      const call = { kind: 'subscribeToAll', from: typeof from === 'object' ? from.commit : from, scanned: 0, sent: 0 };
      this.calls.push(call);
      const stream = Object.assign(new PassThrough({ objectMode: true }), { cancel: () => stream.end() });
      const filter = options.filter;
      const every = (this.options.searchWindow ?? 32) * (filter?.checkpointInterval ?? 1);
      let cursor =
        from === END
          ? this.log.length
          : this.log.findIndex((r) => typeof from !== 'object' || r.position > from.commit);
      if (cursor < 0) cursor = this.log.length;
      let sinceCheckpoint = 0;
      const tick = () => {
        for (; cursor < this.log.length; cursor++) {
          const record = this.log[cursor];
          call.scanned += 1;
          if (!filter || matches(filter, record)) {
            call.sent += 1;
            stream.write(eventMessage(record, true));
          }
          if (filter && ++sinceCheckpoint >= every) {
            sinceCheckpoint = 0;
            stream.write(checkpointMessage(record.position));
          }
        }
      };
      const entry = { stream, tick };
      this.live.add(entry);
      stream.on('finish', () => this.live.delete(entry));
      setImmediate(tick);
      return new Subscription<AllStreamResolvedEvent>(
        async () => stream as never,
        convertGrpcEvent,
        {},
        filter?.checkpointReached,
      ) as unknown as EsdbSubscription;
    },

    dispose: async () => {
      for (const { stream } of this.live) stream.end();
      this.live.clear();
    },
  };

  private positionOf(record: FakeRecord) {
    return { commit: record.position, prepare: record.position };
  }
}

function matches(filter: Filter, record: FakeRecord): boolean {
  const subject = filter.filterOn === EVENT_TYPE ? record.type : record.stream;
  if ('prefixes' in filter) return filter.prefixes.some((p) => subject.startsWith(p));
  return new RegExp(filter.regex).test(subject);
}

function grpcStream(messages: ReadResp[]): () => Promise<never> {
  return async () => {
    const stream = Object.assign(new PassThrough({ objectMode: true }), { cancel: () => stream.destroy() });
    for (const message of messages) stream.write(message);
    stream.end();
    return stream as never;
  };
}

function eventMessage(record: FakeRecord, withPosition: boolean): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  const id = new UUID();
  id.setString(record.id);
  recorded.setId(id);
  const streamId = new StreamIdentifier();
  streamId.setStreamName(Buffer.from(record.stream));
  recorded.setStreamIdentifier(streamId);
  recorded.setStreamRevision(record.revision.toString());
  const position = withPosition ? record.position.toString() : NO_POSITION;
  recorded.setCommitPosition(position);
  recorded.setPreparePosition(position);
  recorded.getMetadataMap().set('type', record.type);
  recorded.getMetadataMap().set('content-type', 'application/json');
  recorded.getMetadataMap().set('created', (BigInt(Date.now()) * 10_000n).toString());
  recorded.setData(Buffer.from(JSON.stringify(record.data)));
  recorded.setCustomMetadata(Buffer.from(JSON.stringify(record.metadata)));
  const event = new ReadResp.ReadEvent();
  event.setEvent(recorded);
  const response = new ReadResp();
  response.setEvent(event);
  return response;
}

function checkpointMessage(position: bigint): ReadResp {
  const checkpoint = new ReadResp.Checkpoint();
  checkpoint.setCommitPosition(position.toString());
  checkpoint.setPreparePosition(position.toString());
  const response = new ReadResp();
  response.setCheckpoint(checkpoint);
  return response;
}

function streamNotFound(stream: string): ReadResp {
  const notFound = new ReadResp.StreamNotFound();
  const streamId = new StreamIdentifier();
  streamId.setStreamName(Buffer.from(stream));
  notFound.setStreamIdentifier(streamId);
  const response = new ReadResp();
  response.setStreamNotFound(notFound);
  return response;
}
