import { counter, histogram } from '../observability/index.js';
import { classifyModelError } from './retry/classify-model-error.js';
import type { AssembledContext } from './types.js';

/** Assembly takes 0.5-3 ms typically (docs/loop.md); the buckets resolve 0.1 ms to 100 ms. */
export const ASSEMBLY_SECONDS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];
/** From a small local model's window to the largest hosted ones. */
export const CONTEXT_TOKEN_BUCKETS = [512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072, 262_144, 1_048_576];
/** Dense near the high-water mark (0.9), where compactions are triggered. */
export const UTILIZATION_BUCKETS = [0.1, 0.25, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1];

/** What the packer did with a section, plus `dropped` for the ones it left out. */
export const SECTION_ACTIONS = ['kept', 'trimmed', 'summarized', 'dropped'] as const;
type SectionAction = (typeof SECTION_ACTIONS)[number];

let assembly: ReturnType<typeof createAssemblyMetrics> | undefined;

/**
 * Created on first use, with the label children bound once: `assemble` runs before every model
 * call, so it must not build label objects each time. Every known label value starts at 0 so a
 * scrape shows the series (and `rate()` works) before the first event of that kind.
 */
function createAssemblyMetrics() {
  const assemblies = counter('baton_loop_assemblies_total', 'Agent-loop contexts assembled, by whether the build re-planned older turns', [
    'compacted',
  ]);
  const sections = counter('baton_loop_sections_total', 'Sections of assembled agent-loop contexts, by what the packer did with them', [
    'action',
  ]);
  const metrics = {
    compacted: assemblies.labels('true'),
    appended: assemblies.labels('false'),
    sections: Object.fromEntries(SECTION_ACTIONS.map((action) => [action, sections.labels(action)])) as Record<
      SectionAction,
      ReturnType<typeof sections.labels>
    >,
    seconds: histogram(
      'baton_loop_assembly_duration_seconds',
      'Wall time of one agent-loop context assembly',
      [],
      ASSEMBLY_SECONDS_BUCKETS,
    ),
    tokens: histogram('baton_loop_context_tokens', 'Tokens of each assembled agent-loop context', [], CONTEXT_TOKEN_BUCKETS),
    utilization: histogram('baton_loop_budget_utilization', 'Assembled tokens as a share of the token budget', [], UTILIZATION_BUCKETS),
  };
  metrics.compacted.inc(0);
  metrics.appended.inc(0);
  for (const action of SECTION_ACTIONS) metrics.sections[action].inc(0);
  return metrics;
}

/** Records one assembly: whether it compacted, its duration, size, budget share and section fates. */
export function observeAssembly(context: AssembledContext, seconds: number): void {
  const m = (assembly ??= createAssemblyMetrics());
  (context.compacted ? m.compacted : m.appended).inc();
  m.seconds.observe(seconds);
  m.tokens.observe(context.tokens);
  if (context.budget > 0) m.utilization.observe(context.tokens / context.budget);
  // Counted locally first: one prom-client update per action instead of one per section.
  const counts: Record<SectionAction, number> = { kept: 0, trimmed: 0, summarized: 0, dropped: context.dropped.length };
  for (const section of context.sections) counts[section.action] += 1;
  for (const action of SECTION_ACTIONS) if (counts[action]) m.sections[action].inc(counts[action]);
}

/** Records one retry of a model call (1-based `attempt`), labelled by classifyModelError's kind. */
export function observeModelRetry(error: unknown, attempt: number): void {
  counter('baton_loop_model_retries_total', 'Model calls retried by callWithContextRetry, by error kind and retry number', [
    'kind',
    'attempt',
  ]).inc({
    kind: classifyModelError(error).kind,
    attempt: String(attempt),
  });
}

/** Records a model call that failed for good, labelled by the kind of its last error. */
export function observeModelFailure(error: unknown): void {
  counter(
    'baton_loop_model_failures_total',
    'Model calls through callWithContextRetry that failed after all retries (or at once), by last error kind',
    ['kind'],
  ).inc({ kind: classifyModelError(error).kind });
}
