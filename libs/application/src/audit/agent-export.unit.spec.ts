import type { StoredEvent } from '@app/event-store';
import { derivedEventId, eventsToImport, parseJsonLines, redactBodies, REDACTED, toJsonLines } from './agent-export';

const stored = (type: string, data: Record<string, unknown>, revision = 0): StoredEvent => ({
  id: `00000000-0000-4000-8000-00000000000${revision}`,
  stream: 'agent-a',
  type,
  data,
  metadata: { schema_version: 1 },
  revision: BigInt(revision),
  position: BigInt(10 + revision),
  recorded_at: '2026-01-01T00:00:00Z',
});

describe('redacting bodies', () => {
  it('replaces message bodies (text or JSON) and nested plan previews, and counts them', () => {
    expect(redactBodies(stored('MessageQueued', { body: { secret: 1 }, kind: 'operator_prompt' }))).toMatchObject({
      event: { data: { body: REDACTED, kind: 'operator_prompt' } },
      redacted: 1,
    });
    const created = redactBodies(
      stored('WorkItemCreated', { objective: 'o', plan_artifact: { preview: 'plan text', hash: 'sha256:x' } }),
    );
    expect(created).toMatchObject({
      event: { data: { objective: 'o', plan_artifact: { preview: REDACTED, hash: 'sha256:x' } } },
      redacted: 1,
    });
  });

  it('leaves null bodies, other types and the original event alone', () => {
    const hint = stored('WakeHintSubmitted', { body: null });
    expect(redactBodies(hint)).toEqual({ event: hint, redacted: 0 });
    const picked = stored('WorkItemPicked', { reason: 'r' });
    expect(redactBodies(picked).event).toBe(picked);
  });
});

describe('reading events.jsonl', () => {
  it('reads back what it wrote', () => {
    const events = [stored('AgentRegistered', { agent_id: 'a' }, 0), stored('WorkItemCreated', { agent_id: 'a' }, 1)];
    expect(parseJsonLines(toJsonLines(events))).toEqual({ agentId: 'a', events });
  });

  it.each([
    ['an empty file', '', /holds no events/],
    ['a line that is not JSON', '{', /events.jsonl:1: not valid JSON/],
    [
      'a stream that does not start at revision 0',
      JSON.stringify({ ...JSON.parse(toJsonLines([stored('X', {}, 1)])) }),
      /revision 1 where 0 was expected/,
    ],
    [
      'a position that is not a decimal string',
      JSON.stringify({ ...JSON.parse(toJsonLines([stored('X', {})])), position: 12 }),
      /position must be a non-empty string/,
    ],
    [
      'a non-agent stream',
      JSON.stringify({ ...JSON.parse(toJsonLines([stored('X', {})])), stream: 'other' }),
      /not an agent stream/,
    ],
  ])('refuses %s, naming the line', (_name, text, message) => {
    expect(() => parseJsonLines(text)).toThrow(message);
  });
});

describe('events to import', () => {
  const events = [stored('AgentRegistered', { agent_id: 'a', at: 't' })];

  it('keeps ids and data for the same agent id', () => {
    expect(eventsToImport(events, 'a', 'a')).toEqual([
      { id: events[0].id, type: 'AgentRegistered', data: events[0].data, metadata: events[0].metadata },
    ]);
  });

  it('rewrites data.agent_id and derives stable UUIDs for another agent id', () => {
    const [copy] = eventsToImport(events, 'a', 'b');
    expect(copy).toMatchObject({ data: { agent_id: 'b', at: 't' }, id: derivedEventId('b', events[0].id) });
    expect(copy.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedEventId('c', events[0].id)).not.toBe(copy.id);
  });
});
