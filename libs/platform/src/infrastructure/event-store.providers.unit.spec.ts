import { appendCallsFor } from './event-store.providers';

describe("the Postgres store's append calls in flight per role (group commit, ADR 0047)", () => {
  it('keeps one call in flight in a process that only serves the API or projects', () => {
    expect(appendCallsFor('api')).toBe(1);
    expect(appendCallsFor('projector')).toBe(1);
    expect(appendCallsFor('api,projector')).toBe(1);
  });

  it('keeps four in a process that runs the scheduler', () => {
    expect(appendCallsFor('scheduler')).toBe(4);
    expect(appendCallsFor('all')).toBe(4);
    expect(appendCallsFor('api,scheduler')).toBe(4);
  });
});
