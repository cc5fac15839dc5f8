/** A clock for tests: `now()` returns the set time until `advance` or `set` moves it. */
export interface FixedClock {
  now: () => number;
  advance(ms: number): number;
  set(ms: number): void;
}

/** @default start 2026-01-01T00:00:00Z */
export function fixedClock(start = Date.UTC(2026, 0, 1)): FixedClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
      return current;
    },
    set(ms) {
      current = ms;
    },
  };
}
