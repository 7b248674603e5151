import type { ServiceDefinition } from '@grpc/grpc-js';
import { GrpcServerStream, GrpcService, GrpcUnary } from './grpc.decorators';
import { assertImplements, mergeGrpcProviders, type GrpcProvider } from './grpc-services';

const options = { service: 't.v1.S', proto: 's.proto' };

@GrpcService(options)
class ItemRpcs {
  @GrpcUnary('GetItem')
  getItem(request: { id: string }) {
    return { id: request.id, from: 'items' };
  }
}

@GrpcService(options)
class AdminRpcs {
  @GrpcUnary('Purge', { adminOnly: true })
  purge() {
    return { purged: true };
  }
}

@GrpcService(options)
class OtherItemRpcs {
  @GrpcUnary('GetItem')
  alsoGetItem() {
    return {};
  }
}

@GrpcService(options)
class WatchRpcs {
  @GrpcServerStream('WatchItems')
  async *watchItems() {
    yield { id: 'x' };
  }
}

const provider = (type: new () => object, opts = options): GrpcProvider => ({
  options: opts,
  type,
  instance: new type(),
});
const definitionOf = (...methods: string[]) =>
  Object.fromEntries(
    methods.map((m) => [m, { path: `/t.v1.S/${m}`, requestStream: false, responseStream: false }]),
  ) as unknown as ServiceDefinition;

describe('mergeGrpcProviders', () => {
  it("merges every provider's RPCs into its service, each bound to its own instance", async () => {
    const [merged, ...rest] = mergeGrpcProviders([provider(ItemRpcs), provider(AdminRpcs)]);
    expect(rest).toEqual([]);
    expect([...merged!.handlers.keys()].sort()).toEqual(['GetItem', 'Purge']);
    expect(merged!.handlers.get('Purge')!.binding).toMatchObject({ adminOnly: true });
    const context = { caller: null, metadata: {} as never, requestId: 'r' };
    expect(await merged!.handlers.get('GetItem')!.invoke({ id: 'x' }, context)).toEqual({ id: 'x', from: 'items' });
    expect(() => assertImplements(merged!, definitionOf('GetItem', 'Purge'))).not.toThrow();
  });

  it('refuses an RPC with two handlers, naming both', () => {
    expect(() => mergeGrpcProviders([provider(ItemRpcs), provider(OtherItemRpcs)])).toThrow(
      't.v1.S.GetItem has two handlers: ItemRpcs.getItem and OtherItemRpcs.alsoGetItem',
    );
  });

  it('refuses one service declared with two .proto files, and two adapters for one message', () => {
    expect(() =>
      mergeGrpcProviders([provider(ItemRpcs), provider(AdminRpcs, { ...options, proto: 'other.proto' })]),
    ).toThrow('two .proto files');
    const adapters = (tag: string) => ({ ...options, replyAdapters: { 't.v1.Item': () => tag } });
    expect(() => mergeGrpcProviders([provider(ItemRpcs, adapters('a')), provider(AdminRpcs, adapters('b'))])).toThrow(
      'two reply adapters for t.v1.Item',
    );
  });
});

describe('assertImplements', () => {
  const [merged] = mergeGrpcProviders([provider(ItemRpcs)]);

  it('fails on an RPC of the .proto without a handler', () => {
    expect(() => assertImplements(merged!, definitionOf('GetItem', 'Purge', 'Drop'))).toThrow(
      't.v1.S: no handler for Purge, Drop',
    );
  });

  it('fails on a handler for an RPC the .proto does not have', () => {
    expect(() => assertImplements(merged!, definitionOf('ListItems'))).toThrow(
      'has no method GetItem (ItemRpcs.getItem; see s.proto)',
    );
  });

  it('fails on a streaming RPC', () => {
    const definition = {
      GetItem: { path: '/t.v1.S/GetItem', requestStream: false, responseStream: true },
    } as unknown as ServiceDefinition;
    expect(() => assertImplements(merged!, definition)).toThrow('only unary RPCs');
  });

  it('binds @GrpcServerStream to a server-streaming RPC only, and refuses client streaming', () => {
    const [watch] = mergeGrpcProviders([provider(WatchRpcs)]);
    expect(watch!.handlers.get('WatchItems')!.binding).toMatchObject({ kind: 'server_stream' });
    const rpc = (requestStream: boolean, responseStream: boolean) =>
      ({ WatchItems: { path: '/t.v1.S/WatchItems', requestStream, responseStream } }) as unknown as ServiceDefinition;
    expect(() => assertImplements(watch!, rpc(false, true))).not.toThrow();
    expect(() => assertImplements(watch!, rpc(false, false))).toThrow('@GrpcServerStream needs a server-streaming RPC');
    expect(() => assertImplements(watch!, rpc(true, true))).toThrow('client-streaming RPCs are not supported');
  });
});
