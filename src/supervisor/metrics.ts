import { counter, gauge, histogram } from '../observability/index.js';

/** Seed 000's metric name, kept verbatim. */
export const contextInjections = () => counter('context_injection_count', 'Pre-context blocks injected, by seam', ['type']);

export const dispatchesTotal = () => counter('baton_dispatches_total', 'Provider tries, by provider and outcome', ['provider', 'outcome']);

/** 0 closed, 1 half-open, 2 open. */
export const breakerStateGauge = () =>
  gauge('baton_breaker_state', 'Circuit breaker state per provider (0 closed, 1 half-open, 2 open)', ['provider']);

export const attemptsPerTask = () =>
  histogram('baton_task_attempts', 'Attempts a task took until completed or blocked', ['status'], [1, 2, 3, 4, 5, 8, 13]);

export const BREAKER_STATE_VALUE = { closed: 0, half_open: 1, open: 2 } as const;
