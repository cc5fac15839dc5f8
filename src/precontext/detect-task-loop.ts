import { TASK_LOOP_ATTEMPTS } from './defaults.js';
import type { AttemptSummary } from './types.js';

/**
 * Seed 000's loop detection: true when the last 3 attempts share their first validation error.
 * Attempts without a validation error (a provider failure, an interruption) never form a loop.
 */
export function detectTaskLoop(attempts: readonly Pick<AttemptSummary, 'validationErrors'>[]): boolean {
  if (attempts.length < TASK_LOOP_ATTEMPTS) return false;
  const firsts = attempts.slice(-TASK_LOOP_ATTEMPTS).map((a) => a.validationErrors[0] ?? '');
  return firsts[0] !== '' && firsts.every((e) => e === firsts[0]);
}
