import { type AgentState, evolve, initialAgentState } from '@app/domain';
import { currentSchemaVersion, toDomainEvent, upcastEvent } from '@app/core';
import { domainEventTypes } from '../testing/domain-event-types';
import { loadEventSamples } from '../testing/event-samples';

/*
 * The stored samples in fixtures/events/<EventType>/v<N>.json are the storage contract of the
 * events: every version ever written must still be read (upcast) and folded by today's code.
 */
const samples = loadEventSamples();
const GENERATE = 'npx ts-node -T -r tsconfig-paths/register tools/generate-event-samples.ts';

describe('the stored event samples', () => {
  const types = domainEventTypes();

  it('cover every event type of the domain at the version the code writes today', () => {
    const have = new Set(samples.map((s) => `${s.type}/v${s.version}`));
    const missing = types.filter((type) => !have.has(`${type}/v${currentSchemaVersion(type)}`));
    if (missing.length > 0) {
      throw new Error(
        `no stored sample for ${missing.join(', ')}: add fixtures/events/<Type>/v<N>.json (by hand or with \`${GENERATE}\`)`,
      );
    }
  });

  it('name only types the domain defines, in files that match their content', () => {
    expect(samples.filter((s) => !types.includes(s.type)).map((s) => s.file)).toEqual([]);
    for (const sample of samples) {
      expect({
        file: sample.file,
        type: sample.event.type,
        version: sample.event.metadata.schema_version ?? 1,
      }).toEqual({ file: sample.file, type: sample.type, version: sample.version });
    }
  });

  it.each(samples.map((s) => [`${s.type} v${s.version}`, s] as const))(
    '%s upcasts to the current version and folds from an empty agent',
    (_name, sample) => {
      const current = upcastEvent(sample.event);
      expect(current.metadata.schema_version ?? 1).toBe(currentSchemaVersion(sample.type));
      const after = evolve(initialAgentState(), toDomainEvent(sample.event));
      expect(after.version).toBe(1);
    },
  );

  it('fold in stream order, one stream after the other, without an error', () => {
    const current = samples.filter((s) => s.version === currentSchemaVersion(s.type));
    const streams = [...new Set(current.map((s) => s.event.stream))];
    for (const stream of streams) {
      const ordered = current
        .filter((s) => s.event.stream === stream)
        .sort((a, b) => Number(a.event.revision - b.event.revision));
      const state = ordered.reduce<AgentState>(
        (folded, sample) => evolve(folded, toDomainEvent(sample.event)),
        initialAgentState(),
      );
      expect({ stream, version: state.version }).toEqual({ stream, version: ordered.length });
    }
  });

  it('lift the legacy WorkItemCreated v0 to the fields the runtime writes today, with the creation defaults', () => {
    const byVersion = new Map(samples.filter((s) => s.type === 'WorkItemCreated').map((s) => [s.version, s.event]));
    const lifted = toDomainEvent(byVersion.get(0)!).data;
    expect(Object.keys(lifted).sort()).toEqual(Object.keys(byVersion.get(1)!.data).sort());
    expect(lifted).toMatchObject({ plan_status: 'draft', todo_list: [], revision: 1 });
    expect(byVersion.get(0)!.data).not.toHaveProperty('plan_status');
  });
});
