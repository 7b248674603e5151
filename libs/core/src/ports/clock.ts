/** The only source of "now" outside tests. The domain receives time as an input. */
export interface Clock {
  now(): Date;
}

/** The clock of the process (libs/platform provides a SystemClock; tests a FixedClock). */
export const CLOCK = Symbol('CLOCK');
