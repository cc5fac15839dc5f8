import type { LanguageModel } from 'ai';
import { lazyAiSdkModel } from '../providers/index.js';
import { definedFields } from '../util/index.js';
import type { PanelHttpModelSpec, PanelModelSpec } from './types.js';

/**
 * Makes the AI SDK 6 model a panel spec names. Its provider package is imported on the model's
 * first call, not here, so loading a panel costs nothing for the APIs it does not use. No network
 * until the model is called.
 */
export function createLanguageModel(spec: PanelHttpModelSpec): LanguageModel {
  return lazyAiSdkModel({
    api: spec.provider,
    modelId: spec.model,
    name: 'panel',
    // Usage in streamed answers (openai-compatible only): the panel streams and still reports tokens.
    includeUsage: true,
    ...definedFields({ baseURL: spec.baseURL, apiKey: spec.apiKey, headers: spec.headers }),
  });
}

/** `provider:model` (`baton:<name>[/model]`), as used in summarizer ids, ledger dispatches and messages. */
export function describeModel(spec: PanelModelSpec): string {
  if (spec.provider === 'baton') return `baton:${spec.name}${spec.model ? `/${spec.model}` : ''}`;
  return `${spec.provider}:${spec.model}`;
}
