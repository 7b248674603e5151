import { FixedClock, SystemClock } from './clock';

describe('FixedClock', () => {
  it('stands still until set or advanced', () => {
    const clock = new FixedClock('2025-03-01T10:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2025-03-01T10:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2025-03-01T10:00:00.000Z');
    expect(clock.advance(1500).toISOString()).toBe('2025-03-01T10:00:01.500Z');
    clock.set('2030-01-01T00:00:00Z');
    expect(clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('hands out copies, so a caller cannot move it', () => {
    const clock = new FixedClock();
    clock.now().setFullYear(1999);
    expect(clock.now().getUTCFullYear()).toBe(2025);
  });

  it('refuses an invalid time', () => {
    expect(() => new FixedClock('not a date')).toThrow(/invalid start time/);
  });
});

describe('SystemClock', () => {
  it('reads the real time', () => {
    const before = Date.now();
    const at = new SystemClock().now().getTime();
    expect(at).toBeGreaterThanOrEqual(before);
  });
});
