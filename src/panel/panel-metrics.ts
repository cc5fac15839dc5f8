import { counter } from '../observability/index.js';
import type { ContextFallbackReason, ContextMode } from './types.js';

/** Counts one later agent's context decision (seed 003's metrics). */
export function recordContextDecision(mode: ContextMode, fallback: ContextFallbackReason | undefined): void {
  if (mode !== 'none') {
    counter('baton_panel_contexts_passed_total', 'Later panel agents that received earlier answers, by form', ['mode']).inc({ mode });
  } else if (fallback) {
    counter('baton_panel_context_fallbacks_total', 'Later panel agents that got no context although earlier answers existed, by reason', [
      'reason',
    ]).inc({ reason: fallback });
  }
}

/** Counts one agent answer by outcome kind. */
export function recordAnswer(outcome: string): void {
  counter('baton_panel_answers_total', 'Panel agent answers, by outcome kind', ['outcome']).inc({ outcome });
}
