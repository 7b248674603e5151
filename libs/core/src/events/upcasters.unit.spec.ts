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

  it('writes version 2 of the types carrying a plan descriptor and version 1 of every other type', () => {
    expect(currentSchemaVersion('WorkItemCreated')).toBe(2);
    expect(currentSchemaVersion('PlanArtifactRefreshed')).toBe(2);
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

describe('plan descriptors without an absolute path (WorkItemCreated and PlanArtifactRefreshed v1 -> v2)', () => {
  const plan = {
    path: '/srv/replica-1/agent-home/a-1/work-items/w-1/plan.md',
    relative_path: 'work-items/w-1/plan.md',
    hash: 'sha256:abc',
    byte_size: 3,
    updated_at: '2026-01-01T00:00:00Z',
    preview: 'abc',
    preview_complete: true,
  };
  const { path: _path, ...relativeOnly } = plan;
  const stored = (type: string, version: number | undefined, planArtifact: Record<string, unknown>) => ({
    type,
    data: {
      agent_id: 'a-1',
      work_item_id: 'w-1',
      plan_artifact: planArtifact,
      revision: 2,
      at: '2026-01-01T00:00:01Z',
    },
    metadata: version === undefined ? {} : { schema_version: version },
    stream: 'agent-a-1',
    revision: 3n,
  });

  it.each(['WorkItemCreated', 'PlanArtifactRefreshed'])(
    'given a stored v1 %s with path and relative_path, when upcast, then only relative_path and the rest remain',
    (type) => {
      const event = upcastEvent(stored(type, 1, plan));
      expect(event.data.plan_artifact).toEqual(relativeOnly);
      expect(event.data).toMatchObject({ agent_id: 'a-1', work_item_id: 'w-1', revision: 2 });
      expect(event.metadata).toEqual({ schema_version: 2, stored_schema_version: 1 });
    },
  );

  it('given a v1 event without schema_version (read as 1), when upcast, then the path is dropped', () => {
    expect(upcastEvent(stored('PlanArtifactRefreshed', undefined, plan)).data.plan_artifact).toEqual(relativeOnly);
  });

  it('given a descriptor with only an absolute path, when upcast, then relative_path is what follows /<agent_id>/', () => {
    const { relative_path: _relative, ...pathOnly } = { ...plan, path: 'C:\\homes\\a-1\\work-items\\w-1\\plan-v2.md' };
    expect(upcastEvent(stored('WorkItemCreated', 1, pathOnly)).data.plan_artifact).toEqual({
      ...relativeOnly,
      relative_path: 'work-items/w-1/plan-v2.md',
    });
  });

  it.each([
    ['names another agent (an import under --as)', '/h/other-agent/work-items/w-1/plan.md'],
    ['would leave the home', '/h/a-1/../work-items/w-1/plan.md/..'],
    ['is missing', undefined],
  ])('given a descriptor whose path %s, when upcast, then relative_path is work-items/<id>/plan.md', (_case, path) => {
    const { relative_path: _relative, path: _old, ...rest } = plan;
    const event = upcastEvent(stored('PlanArtifactRefreshed', 1, path === undefined ? rest : { ...rest, path }));
    expect(event.data.plan_artifact).toEqual({ ...rest, relative_path: 'work-items/w-1/plan.md' });
  });

  it('given a v0 WorkItemCreated of the prototype ledgers, when upcast, then both steps apply', () => {
    const event = upcastEvent({
      ...stored('WorkItemCreated', 0, plan),
      data: { ...stored('WorkItemCreated', 0, plan).data, revision: undefined },
    });
    expect(event.data).toMatchObject({ plan_status: 'draft', todo_list: [], revision: 1, plan_artifact: relativeOnly });
    expect(event.metadata).toEqual({ schema_version: 2, stored_schema_version: 0 });
  });

  it('given a v2 event, when read, then it is returned as stored', () => {
    const current = stored('WorkItemCreated', 2, relativeOnly);
    expect(upcastEvent(current)).toBe(current);
  });
});
