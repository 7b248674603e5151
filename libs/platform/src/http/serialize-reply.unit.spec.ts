import { bigintReplacer } from '../errors/json-safe';
import { serializeReply } from './fastify-setup';

describe('serializeReply', () => {
  it.each<[string, unknown]>([
    ['a reply without bigint', { revision: '3', position: '17', work_item: { id: 'w-1', todo_list: [{ text: 'a' }] } }],
    ['a reply with bigints, nested', { revision: 3n, items: [{ position: 17n }, { at: new Date(0) }] }],
    ['a bare bigint', 42n],
    ['undefined fields and a toJSON', { a: undefined, b: null, c: { toJSON: () => 'x' } }],
  ])('writes %s as JSON.stringify with the bigint replacer does', (_name, payload) => {
    expect(serializeReply(payload)).toBe(JSON.stringify(payload, bigintReplacer));
  });

  it('still refuses what JSON cannot hold (a cycle)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => serializeReply(cyclic)).toThrow(TypeError);
  });
});
