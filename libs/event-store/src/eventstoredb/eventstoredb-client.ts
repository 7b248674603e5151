import {
  BACKWARDS,
  END,
  EVENT_TYPE,
  EventStoreDBClient,
  START,
  STREAM_NAME,
  type AllStreamResolvedEvent,
  type AppendResult,
  type AppendToStreamOptions,
  type EventData,
  type Filter,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ResolvedEvent,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import { Empty } from '@eventstore/db-client/generated/shared_pb';
import { StreamsClient } from '@eventstore/db-client/generated/streams_grpc_pb';
import { ReadReq } from '@eventstore/db-client/generated/streams_pb';
import { ReadStream } from '@eventstore/db-client/dist/streams/utils/ReadStream';
import { convertGrpcEvent } from '@eventstore/db-client/dist/utils/convertGrpcEvent';

/** A read of the client: an async iterable that can be cancelled. */
export interface EsdbRead<E> extends AsyncIterable<E> {
  cancel(): Promise<void>;
}

/** A subscription of the client: an async iterable that can be ended. */
export interface EsdbSubscription extends AsyncIterable<AllStreamResolvedEvent> {
  unsubscribe(): Promise<void>;
}

/** $all read options with the server-side filter that the gRPC Read call accepts for $all. */
export interface EsdbReadAllOptions extends ReadAllOptions {
  filter?: Filter;
}

/**
 * What the adapter uses of @eventstore/db-client: the client's own signatures, narrowed to the
 * calls the adapter makes (so a spec can stand a fake server behind exactly this boundary), plus
 * `readAll` with a server-side filter (the client's next major, @kurrent/kurrentdb-client, has it;
 * 6.x sends "no filter" on reads, see `connectEsdbClient`).
 */
export interface EsdbClient {
  appendToStream(stream: string, events: EventData[], options: AppendToStreamOptions): Promise<AppendResult>;
  readStream(stream: string, options: ReadStreamOptions): EsdbRead<ResolvedEvent>;
  readAll(options: EsdbReadAllOptions): EsdbRead<AllStreamResolvedEvent>;
  subscribeToAll(options: SubscribeToAllOptions): EsdbSubscription;
  dispose(): Promise<void>;
}

type CallArguments = (options: object, callOptions?: object) => unknown[];
type StreamCreator = (
  client: typeof StreamsClient,
  debugName: string,
  creator: (client: StreamsClient) => unknown,
) => () => Promise<never>;

/**
 * The official client for a connection string, with `readAll` taking a server-side filter.
 * The filtered read is the same Read call the client's subscribeToAll makes (the same
 * generated request types and the same stream plumbing), as a read: options.filter instead of
 * options.no_filter, with a count instead of subscription options. Without a filter it is the
 * client's own readAll.
 */
export function connectEsdbClient(connectionString: string): EsdbClient {
  const client = EventStoreDBClient.connectionString(connectionString);
  const internals = client as unknown as { GRPCStreamCreator: StreamCreator; callArguments: CallArguments };
  return {
    appendToStream: (stream, events, options) => client.appendToStream(stream, events, options),
    readStream: (stream, options) => client.readStream(stream, options),
    subscribeToAll: (options) => client.subscribeToAll(options),
    dispose: () => client.dispose(),
    readAll: ({ filter, ...options }) => {
      if (!filter) return client.readAll(options);
      const request = filteredReadAllRequest(options, filter);
      const create = internals.GRPCStreamCreator(StreamsClient, 'readAll', (grpc) =>
        grpc.read(request, ...(internals.callArguments(options, { deadline: Infinity }) as [never, never])),
      );
      return new ReadStream<AllStreamResolvedEvent>(create, convertGrpcEvent, {});
    },
  };
}

/** The Read request of a filtered $all read (exported for its spec). */
export function filteredReadAllRequest(options: ReadAllOptions, filter: Filter): ReadReq {
  const { maxCount = Number.MAX_SAFE_INTEGER, fromPosition = START, direction } = options;
  const all = new ReadReq.Options.AllOptions();
  if (fromPosition === START) all.setStart(new Empty());
  else if (fromPosition === END) all.setEnd(new Empty());
  else all.setPosition(grpcPosition(fromPosition));
  const expression = new ReadReq.Options.FilterOptions.Expression();
  if ('prefixes' in filter) expression.setPrefixList(filter.prefixes);
  if ('regex' in filter) expression.setRegex(filter.regex);
  const filterOptions = new ReadReq.Options.FilterOptions();
  if (filter.filterOn === STREAM_NAME) filterOptions.setStreamIdentifier(expression);
  if (filter.filterOn === EVENT_TYPE) filterOptions.setEventType(expression);
  if (filter.maxSearchWindow !== undefined) filterOptions.setMax(filter.maxSearchWindow);
  else filterOptions.setCount(new Empty());
  filterOptions.setCheckpointintervalmultiplier(filter.checkpointInterval);
  const uuid = new ReadReq.Options.UUIDOption();
  uuid.setString(new Empty());
  const readOptions = new ReadReq.Options();
  readOptions.setAll(all);
  readOptions.setResolveLinks(false);
  readOptions.setCount(maxCount.toString(10));
  readOptions.setUuidOption(uuid);
  readOptions.setFilter(filterOptions);
  readOptions.setReadDirection(direction === BACKWARDS ? 1 : 0);
  const request = new ReadReq();
  request.setOptions(readOptions);
  return request;
}

function grpcPosition(position: Position): ReadReq.Options.Position {
  const grpc = new ReadReq.Options.Position();
  grpc.setCommitPosition(position.commit.toString(10));
  grpc.setPreparePosition(position.prepare.toString(10));
  return grpc;
}
