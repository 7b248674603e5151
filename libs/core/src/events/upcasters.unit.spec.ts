import { SchemaVersionError, UpcasterRegistry, type Upcaster } from './upcaster-registry';
import { currentSchemaVersion, toDomainEvent, upcastEvent } from './upcasters';

const step = (from: number, field: string): Upcaster => ({
  type: 'Thing',
  from,
  up: (data) => ({ ...data, [field]: from + 1 }),
});
const event = (version: number | undefined | string, data: Record<string, unknown> = { a: 1 }) => ({
  type: 'Thing',
  data,
  metadata: version === undefined ? {} : { schema_version: version as number },
  stream: 'agent-x',
  revision: 4n,
});

describe('an upcaster registry with a chain v1 -> v2 -> v3', () => {
  const registry = new UpcasterRegistry([step(2, 'v3'), step(1, 'v2')]);

  it('names version 3 current for the type and 1 for every other type', () => {
    expect(registry.currentVersion('Thing')).toBe(3);
    expect(registry.currentVersion('Other')).toBe(1);
  });

  it('lifts a v1 event through every step, in order, and records the stored version', () => {
    expect(registry.upcast(event(1))).toEqual({
      ...event(1),
      data: { a: 1, v2: 2, v3: 3 },
      metadata: { schema_version: 3, stored_schema_version: 1 },
    });
  });

  it('reads an event without schema_version as version 1', () => {
    expect(registry.upcast(event(undefined)).data).toEqual({ a: 1, v2: 2, v3: 3 });
  });

  it('returns an event already at the current version unchanged (same object)', () => {
    const current = event(3);
    expect(registry.upcast(current)).toBe(current);
  });

  it('never mutates the stored event', () => {
    const stored = event(1);
    const copy = structuredClone(stored);
    registry.upcast(stored);
    expect(stored).toEqual(copy);
  });

  it.each([
    [
      'a version newer than the code',
      4,
      /schema_version 4: written by a newer version of the runtime.*reads up to version 3/,
    ],
    ['a negative version', -1, /not a non-negative integer/],
    ['a string version', '2', /not a non-negative integer/],
    ['a version below the chain', 0, /no upcaster from version 0/],
  ])('fails loudly on %s, naming the type and where it is stored', (_name, version, message) => {
    expect(() => registry.upcast(event(version))).toThrow(SchemaVersionError);
    expect(() => registry.upcast(event(version))).toThrow(message);
    expect(() => registry.upcast(event(version))).toThrow(/Thing \(agent-x@4\)/);
  });

  it('refuses two upcasters for one step and a chain with a hole', () => {
    expect(() => new UpcasterRegistry([step(1, 'x'), step(1, 'y')])).toThrow(/two upcasters for Thing from version 1/);
    expect(() => new UpcasterRegistry([step(1, 'x'), step(3, 'y')])).toThrow(/skip from version 1 to 3/);
  });
});

describe('the runtime registry', () => {
  const legacyCreated = {
    type: 'WorkItemCreated',
    data: { agent_id: 'a', work_item_id: 'w', objective: 'o', plan_artifact: {}, at: '2026-01-01T00:00:00Z' },
    metadata: { schema_version: 0 },
  };

  it('writes version 1 of every type today', () => {
    expect(currentSchemaVersion('WorkItemCreated')).toBe(1);
    expect(currentSchemaVersion('MessageQueued')).toBe(1);
  });

  it('lifts a v0 WorkItemCreated with the creation defaults of docs/domain-contract.md', () => {
    expect(upcastEvent(legacyCreated).data).toMatchObject({ plan_status: 'draft', todo_list: [], revision: 1 });
  });

  it('keeps the fields a v0 event did record', () => {
    const withStatus = { ...legacyCreated, data: { ...legacyCreated.data, plan_status: 'ready', revision: 1 } };
    expect(toDomainEvent(withStatus).data).toMatchObject({ plan_status: 'ready' });
  });

  it('gives the domain only type and data', () => {
    expect(Object.keys(toDomainEvent(legacyCreated))).toEqual(['type', 'data']);
  });
});
