import type { Provider } from '@nestjs/common';
import { CLOCK, type Clock } from '@app/core';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock for tests: stands still until told to move. */
export class FixedClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2025-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
    if (Number.isNaN(this.current)) throw new Error(`FixedClock: invalid start time ${String(start)}`);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    const next = new Date(at).getTime();
    if (Number.isNaN(next)) throw new Error(`FixedClock: invalid time ${String(at)}`);
    this.current = next;
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
}

export function clockProvider(clock?: Clock): Provider {
  return { provide: CLOCK, useFactory: (): Clock => clock ?? new SystemClock() };
}
