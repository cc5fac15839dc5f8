import type { Outcome, Provider, ProviderResult, ProviderRunRequest } from '../providers/index.js';

/** One scripted reply: an outcome kind (or a full Outcome) plus optional output and model. */
export type ScriptedStep =
  | Outcome['kind']
  | (Partial<Omit<ProviderResult, 'outcome'>> & { outcome: Outcome | Outcome['kind'] })
  | ((request: ProviderRunRequest) => ProviderResult | Promise<ProviderResult>);

/**
 * A provider that answers from a script instead of running an agent, so tests of code built on
 * Baton can drive fallbacks and retries without processes. Steps are used in order; the last step
 * repeats once the script runs out. Every request is recorded in `requests`.
 *
 * @example
 * const flaky = new ScriptedProvider('flaky', ['rate_limited', 'ok']);
 */
export class ScriptedProvider implements Provider {
  readonly type = 'scripted';
  readonly requests: ProviderRunRequest[] = [];
  private next = 0;

  constructor(
    readonly name: string,
    private readonly steps: readonly ScriptedStep[],
  ) {
    if (steps.length === 0) throw new Error(`ScriptedProvider "${name}" needs at least one step`);
  }

  async run(request: ProviderRunRequest): Promise<ProviderResult> {
    this.requests.push(request);
    const step = this.steps[Math.min(this.next, this.steps.length - 1)] as ScriptedStep;
    this.next += 1;
    if (typeof step === 'function') return step(request);
    const spec = typeof step === 'string' ? { outcome: step } : step;
    const outcome = typeof spec.outcome === 'string' ? { kind: spec.outcome } : spec.outcome;
    return {
      output: '',
      outputTruncated: false,
      durationMs: 0,
      exitCode: outcome.kind === 'ok' ? 0 : 1,
      ...spec,
      outcome,
    };
  }
}
