import type { Clock } from '../../src/platform/clock.ts';

export interface ManualClock extends Clock {
  /** Moves the clock forward; real time keeps running underneath. */
  advance(ms: number): void;
}

/** The system clock plus an offset the test moves, for limits measured in days. */
export function createManualClock(): ManualClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}
