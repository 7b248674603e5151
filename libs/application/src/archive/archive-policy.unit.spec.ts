import { archiveCutOff, parseArchiveCompletedAfter } from './archive-policy';

describe('ARCHIVE_COMPLETED_AFTER', () => {
  it.each([
    ['30d', 30 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['90m', 90 * 60_000],
    ['45s', 45_000],
    ['1500ms', 1_500],
  ])('reads %s', (raw, ms) => expect(parseArchiveCompletedAfter(raw)).toBe(ms));

  it('is off when unset-like or off', () => {
    expect(parseArchiveCompletedAfter('off')).toBeNull();
    expect(parseArchiveCompletedAfter('')).toBeNull();
  });

  it.each(['30', 'd', '-1d', '1.5d', '999ms', '30 days', '2w'])('refuses %s with a sentence', (raw) => {
    expect(parseArchiveCompletedAfter(raw)).toMatch(/^must be a duration/);
  });
});

describe('the cut-off of a pass', () => {
  it('is now minus the policy, down to the hour for policies of an hour or more', () => {
    const now = Date.parse('2026-03-31T10:42:17.123Z');
    expect(archiveCutOff(now, 30 * 86_400_000)).toBe('2026-03-01T10:00:00.000Z');
    expect(archiveCutOff(now, 60_000)).toBe('2026-03-31T10:41:17.123Z');
  });
});
