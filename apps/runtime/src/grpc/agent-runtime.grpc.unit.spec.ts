import { AGENT_RUNTIME_PROTO, loadProtoRoot, loadServiceDefinition, RUNTIME_GRPC_SERVICE } from '@app/contracts';
import { assertImplements, mergeGrpcProviders, replyMapperFor, type GrpcProvider } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { AuditRpcs } from './audit.grpc-rpcs';
import { DelegationRpcs } from './delegation.grpc-rpcs';
import { RuntimeRecordRpcs } from './runtime-records.grpc-rpcs';
import { SchedulerQueryRpcs } from './scheduler-queries.grpc-rpcs';
import { TurnRpcs } from './turns.grpc-rpcs';
import { WaitingPlaneRpcs } from './waiting-plane.grpc-rpcs';
import { WorkItemRpcs } from './work-items.grpc-rpcs';

const FEATURES = [
  WorkItemRpcs,
  WaitingPlaneRpcs,
  RuntimeRecordRpcs,
  TurnRpcs,
  SchedulerQueryRpcs,
  AuditRpcs,
  DelegationRpcs,
];
const messages = loadProtoRoot(AGENT_RUNTIME_PROTO).lookupService(RUNTIME_GRPC_SERVICE);
const replyOf = (rpc: string) =>
  replyMapperFor(messages.methods[rpc]!.resolvedResponseType!, AGENT_RUNTIME_GRPC.replyAdapters);

describe('agent_runtime.v1.AgentRuntime', () => {
  it("is implemented by the features' providers together: every RPC of the .proto exactly once", () => {
    const providers: GrpcProvider[] = FEATURES.map((type) => ({
      options: AGENT_RUNTIME_GRPC,
      type,
      instance: Object.create(type.prototype) as object,
    }));
    const [service, ...others] = mergeGrpcProviders(providers);
    expect(others).toEqual([]);
    expect(() =>
      assertImplements(service!, loadServiceDefinition(AGENT_RUNTIME_PROTO, RUNTIME_GRPC_SERVICE)),
    ).not.toThrow();
    expect(service!.handlers.get('Callback')!.binding).toMatchObject({ public: true });
  });

  it("carries a warning's extras as details_json and a message body as the content oneof, wherever they occur", () => {
    const message = (body: unknown) => ({ id: 'm-1', kind: 'operator_prompt', body, work_item_id: null, seq: 3 });
    const reply = {
      disposition: 'triggered',
      message: message({ a: 1 }),
      revision: null,
      warnings: [
        { kind: 'unfinished_todos', message: 'two left', pending_count: 2, sample: ['x'] },
        { kind: 'plain', message: 'm' },
      ],
    };
    expect(replyOf('SubmitWakeHint')(reply)).toEqual({
      disposition: 'triggered',
      message: { id: 'm-1', kind: 'operator_prompt', body: { json: '{"a":1}' }, seq: 3 },
      warnings: [
        { kind: 'unfinished_todos', message: 'two left', details_json: '{"pending_count":2,"sample":["x"]}' },
        { kind: 'plain', message: 'm' },
      ],
    });
    expect(replyOf('ListMessages')({ items: [message('hello'), message(null)], total: 2 })).toEqual({
      items: [
        { id: 'm-1', kind: 'operator_prompt', body: { text: 'hello' }, seq: 3 },
        { id: 'm-1', kind: 'operator_prompt', seq: 3 },
      ],
      total: 2,
    });
  });

  it("carries a context section's content as content_json and GetState's candidates as WorkItemIds", () => {
    const sections = [
      { name: 'current_work_item', content: null, text: '', estimated_tokens: 0 },
      { name: 'blocked', content: { count: 1 }, text: 'b', estimated_tokens: 1 },
    ];
    expect((replyOf('GetContext')({ budget_tokens: 10, sections }) as { sections: unknown }).sections).toEqual([
      { name: 'current_work_item', text: '', estimated_tokens: 0 },
      { name: 'blocked', content_json: '{"count":1}', text: 'b', estimated_tokens: 1 },
    ]);
    expect(
      replyOf('GetState')({
        agent_id: null,
        candidates: { blocked: ['w-1', 'w-2'], queued_runnable: [] },
        last_decision: null,
      }),
    ).toEqual({
      candidates: { blocked: { ids: ['w-1', 'w-2'] }, queued_runnable: { ids: [] } },
    });
  });

  it("carries an event item's data and metadata as JSON text, a change's numbers as decimal strings, and streams both", () => {
    const item = {
      event_id: 'e-1',
      revision: '3',
      position: '17',
      type: 'WorkItemCreated',
      data: { objective: 'o', todo_list: [] },
      metadata: { schema_version: 1, actor: 'tok' },
      recorded_at: '2024-01-01T00:00:00.000Z',
    };
    expect(replyOf('ReadEvents')({ items: [item], next_after: null })).toEqual({
      items: [
        {
          event_id: 'e-1',
          revision: '3',
          position: '17',
          type: 'WorkItemCreated',
          data_json: '{"objective":"o","todo_list":[]}',
          metadata_json: '{"schema_version":1,"actor":"tok"}',
          recorded_at: '2024-01-01T00:00:00.000Z',
        },
      ],
    });
    expect(replyOf('WatchChanges')({ agent_id: 'a', revision: 3n, position: 17n, type: 'T' })).toEqual({
      agent_id: 'a',
      revision: '3',
      position: '17',
      type: 'T',
    });
    const [service] = mergeGrpcProviders([
      { options: AGENT_RUNTIME_GRPC, type: AuditRpcs, instance: Object.create(AuditRpcs.prototype) as object },
    ]);
    const kinds = [...service!.handlers].map(([rpc, handler]) => [rpc, handler.binding.kind ?? 'unary']);
    expect(kinds).toEqual([
      ['ReadEvents', 'unary'],
      ['WatchEvents', 'server_stream'],
      ['WatchChanges', 'server_stream'],
    ]);
  });
});
