import { performance } from 'node:perf_hooks';
import { definedFields } from '../util/index.js';
import { classifyHttpError } from './classify/classify-http-error.js';
import { loadAiSdkModel } from './model/ai-sdk-model.js';
import type { HttpProviderConfig, Provider, ProviderResult, ProviderRunRequest, SecretRef } from './types.js';
import { httpConfigSchema, checkProviderConfig } from './provider-config-schema.js';

export interface HttpProviderOptions {
  /** Clock for Retry-After. @default Date.now */
  now?: () => number;
  /** Where {env: VAR} api keys are read at run time. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * An HTTP LLM API through AI SDK 6 (OpenAI-compatible, Anthropic, Google). The SDK's own
 * retries are off (maxRetries: 0): the provider chain and its breaker decide what happens after a
 * 429 or a 5xx. The API key is read when the run starts, so rotating it needs no restart.
 */
export function createHttpProvider(name: string, config: HttpProviderConfig, options: HttpProviderOptions = {}): Provider {
  checkProviderConfig('createHttpProvider', name, config, httpConfigSchema);
  const now = options.now ?? Date.now;
  const env = options.env ?? process.env;
  return {
    name,
    type: 'http',
    async run(request: ProviderRunRequest): Promise<ProviderResult> {
      const started = performance.now();
      const done = (partial: Omit<ProviderResult, 'durationMs' | 'outputTruncated'>): ProviderResult => ({
        ...partial,
        outputTruncated: false,
        durationMs: performance.now() - started,
      });
      const apiKey = resolveSecret(config.apiKey, env);
      if (apiKey instanceof Error) return done({ outcome: { kind: 'config_error', reason: apiKey.message }, output: '' });
      if ((config.api ?? 'openai-compatible') === 'openai-compatible' && !config.baseURL) {
        return done({ outcome: { kind: 'config_error', reason: `${name}: baseURL is required for an openai-compatible API` }, output: '' });
      }
      return done(await generate(name, config, request, { apiKey, now }));
    },
  };
}

/**
 * One generateText call within the run's time limit (the lower of the request's and the config's).
 * Never throws: a timeout, an abort and every API error come back as an outcome.
 */
async function generate(
  name: string,
  config: HttpProviderConfig,
  request: ProviderRunRequest,
  context: { apiKey: string | undefined; now: () => number },
): Promise<Omit<ProviderResult, 'durationMs' | 'outputTruncated'>> {
  const modelId = request.model ?? config.model;
  // The AI SDK loads with the first HTTP call, not with the module (about 80 ms of start-up).
  const { generateText } = await import('ai');
  let timedOut = false;
  const timeout = new AbortController();
  const timer = setTimeout(
    () => {
      timedOut = true;
      timeout.abort();
    },
    Math.min(request.timeoutMs, config.timeoutMs ?? Number.POSITIVE_INFINITY),
  );
  const signal = request.signal === undefined ? timeout.signal : AbortSignal.any([timeout.signal, request.signal]);
  try {
    const api = config.api ?? 'openai-compatible';
    const model = await loadAiSdkModel({ api, modelId, name, baseURL: config.baseURL, apiKey: context.apiKey });
    const result = await generateText({
      model,
      prompt: request.prompt,
      maxRetries: 0,
      abortSignal: signal,
      ...definedFields({ maxOutputTokens: config.maxOutputTokens, headers: config.headers }),
    });
    return {
      outcome: { kind: 'ok' },
      output: result.text,
      response: result.text,
      model: servedModel(result.response) ?? modelId,
      usage: definedFields({ input: result.usage.inputTokens, output: result.usage.outputTokens, total: result.usage.totalTokens }),
    };
  } catch (error) {
    if (timedOut)
      return { outcome: { kind: 'timeout', reason: `${name} did not answer within Baton's time limit` }, output: '', model: modelId };
    if (request.signal?.aborted) return { outcome: { kind: 'interrupted', reason: `${name} run was aborted` }, output: '', model: modelId };
    const outcome = classifyHttpError(error, context.now());
    return { outcome, output: outcome.reason ?? '', model: modelId };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The model that answered: Gemini names it only in the body's `modelVersion` (the AI SDK reports
 * the requested id), the other APIs in the response the SDK reads.
 */
function servedModel(response: { modelId?: string; body?: unknown }): string | undefined {
  const version = (response.body as { modelVersion?: unknown } | undefined)?.modelVersion;
  return typeof version === 'string' && version !== '' ? version : response.modelId;
}

function resolveSecret(ref: SecretRef | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined | Error {
  if (ref === undefined || typeof ref === 'string') return ref;
  const value = env[ref.env];
  if (value === undefined || value === '') return new Error(`environment variable ${ref.env} (apiKey) is not set`);
  return value;
}
