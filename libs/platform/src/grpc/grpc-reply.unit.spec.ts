import { parse } from 'protobufjs';
import { replyMapperFor } from './grpc-reply';

const { root } = parse(
  `
  syntax = "proto3";
  package t.v1;
  message Note { string kind = 1; optional string details_json = 2; }
  message Item { string id = 1; optional string done_at = 2; Item parent = 3; repeated Note notes = 4; }
  message Ids { repeated string ids = 1; }
  message Reply {
    Item item = 1; repeated Item items = 2; map<string, uint32> counts = 3; map<string, Ids> groups = 4;
    string revision = 5; int64 big = 6; optional bool flag = 7;
  }
`,
  { keepCase: true },
);
root.resolveAll();
const reply = root.lookupType('t.v1.Reply');

describe('replyMapperFor', () => {
  it('drops nulls and keys the message does not declare, at every depth', () => {
    const toReply = replyMapperFor(reply);
    const http = {
      item: { id: 'a', done_at: null, parent: null, notes: [], extra: 1 },
      items: [{ id: 'b', done_at: 'x', parent: { id: 'c', done_at: null } }],
      flag: null,
      other: 'x',
    };
    expect(toReply(http)).toEqual({
      item: { id: 'a', notes: [] },
      items: [{ id: 'b', done_at: 'x', parent: { id: 'c' } }],
    });
  });

  it('writes bigint as decimal strings, in scalars and maps', () => {
    expect(replyMapperFor(reply)({ revision: 12n, big: 9007199254740993n, counts: { a: 1, b: null } })).toEqual({
      revision: '12',
      big: '9007199254740993',
      counts: { a: 1 },
    });
  });

  it('reshapes a message type with its adapter wherever it occurs (map values and nested repeated fields too)', () => {
    const toReply = replyMapperFor(reply, {
      't.v1.Note': ({ kind, ...extras }: Record<string, unknown>) => ({
        kind,
        details_json: Object.keys(extras).length > 0 ? JSON.stringify(extras) : null,
      }),
      't.v1.Ids': (ids: string[]) => ({ ids }),
    });
    const http = { item: { id: 'a', notes: [{ kind: 'k', n: 2 }, { kind: 'plain' }] }, groups: { g: ['w-1', 'w-2'] } };
    expect(toReply(http)).toEqual({
      item: { id: 'a', notes: [{ kind: 'k', details_json: '{"n":2}' }, { kind: 'plain' }] },
      groups: { g: { ids: ['w-1', 'w-2'] } },
    });
  });

  it('answers an empty message for an empty reply', () => {
    expect(replyMapperFor(reply)(undefined)).toEqual({});
  });
});
