import { errorMessage } from '../errors/index.js';
import { redactValue } from '../redact/index.js';
import { renderContext } from './render-context.js';
import type { ContextDelta } from './snapshot-delta.js';
import type { ContextSnapshot, RenderJob, RenderOutcome } from './types.js';

/**
 * The CPU-heavy half of a refresh: masks secrets in the gathered snapshot, then renders the
 * format within its cap (a failed detailed render falls back to standard, §6.5). `delta`, when
 * given, is computed from the masked snapshot before rendering (it may add warnings).
 */
export async function redactAndRender(
  raw: ContextSnapshot,
  job: RenderJob,
  delta?: (snapshot: ContextSnapshot) => Promise<ContextDelta | undefined>,
): Promise<RenderOutcome> {
  const { value: snapshot, count: redactions } = await redactValue(raw);
  const changes = delta ? await delta(snapshot) : undefined;
  const { metadata: known, ...render } = job;
  const options = {
    ...render,
    delta: changes,
    metadata: {
      generated_at: known.generated_at,
      format: job.format,
      sources: snapshot.sources,
      warnings: snapshot.warnings,
      redactions,
      cache: known.cache,
      snapshot_id: known.snapshot_id,
    },
  };
  try {
    return { snapshot, rendered: renderContext(snapshot, options) };
  } catch (error) {
    if (job.format !== 'detailed') throw error;
    const warning = `Detailed format failed (${errorMessage(error)}); fell back to standard.`;
    const metadata = {
      ...options.metadata,
      format: 'standard' as const,
      requested_format: 'detailed' as const,
      warnings: [...options.metadata.warnings, warning],
    };
    return { snapshot, rendered: renderContext(snapshot, { ...options, maxTokens: undefined, metadata, format: 'standard' }) };
  }
}
