import { EvaluatedRevisions } from './evaluated-revisions';

describe('EvaluatedRevisions: what the last evaluation of an agent saw', () => {
  it('covers the events at or before the revision evaluated, not later ones nor unknown revisions', () => {
    const seen = new EvaluatedRevisions();
    expect(seen.covers('a', 3n)).toBe(false);
    seen.record('a', '5');
    expect(seen.covers('a', 3n)).toBe(true);
    expect(seen.covers('a', 5n)).toBe(true);
    expect(seen.covers('a', 6n)).toBe(false);
    expect(seen.covers('a', undefined)).toBe(false);
    expect(seen.covers('b', 0n)).toBe(false);
    seen.record('a', null);
    expect(seen.covers('a', 3n)).toBe(false);
  });

  it('skips a pending evaluation asked for only by events that the evaluation finished since saw', () => {
    const seen = new EvaluatedRevisions();
    seen.record('a', 4n);
    seen.askedByEvent('a', 5n, false);
    seen.askedByEvent('a', 6n, true);
    // The evaluation under way when they arrived wrote them: it saw revision 6.
    seen.record('a', 6n);
    expect(seen.take('a')).toBe(false);
  });

  it('evaluates when an event is later than what was seen, or when anything else asked too', () => {
    const seen = new EvaluatedRevisions();
    seen.record('a', 6n);
    seen.askedByEvent('a', 7n, false);
    expect(seen.take('a')).toBe(true);

    seen.askedByEvent('a', 5n, false);
    seen.askedOtherwise('a');
    expect(seen.take('a')).toBe(true);

    // Pending for another reason (a deadline) first: an event does not make it skippable.
    seen.askedByEvent('a', 5n, true);
    expect(seen.take('a')).toBe(true);

    // An event without a revision is another reason.
    seen.askedByEvent('a', undefined, false);
    expect(seen.take('a')).toBe(true);

    // Nothing recorded (a failed or forgotten evaluation): evaluated again.
    seen.askedByEvent('b', 0n, false);
    expect(seen.take('b')).toBe(true);
  });

  it('forgets the least recently evaluated agents beyond its bound: they are evaluated again', () => {
    const seen = new EvaluatedRevisions(2);
    seen.record('a', 1n);
    seen.record('b', 1n);
    seen.record('c', 1n);
    expect(seen.covers('a', 1n)).toBe(false);
    expect(seen.covers('c', 1n)).toBe(true);
  });

  it('drops what a lost agent asked for', () => {
    const seen = new EvaluatedRevisions();
    seen.record('a', 1n);
    seen.askedByEvent('a', 0n, false);
    seen.drop('a');
    seen.record('a', null);
    expect(seen.take('a')).toBe(true);
  });
});
