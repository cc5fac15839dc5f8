import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { PanelHttpModelSpec, PanelModelSpec } from './types.js';

/** Makes the AI SDK 6 model a panel spec names. No network until the model is called. */
export function createLanguageModel(spec: PanelHttpModelSpec): LanguageModel {
  switch (spec.provider) {
    case 'openai-compatible':
      // The provider POSTs to `${baseURL}/chat/completions`.
      return createOpenAICompatible({
        name: 'panel',
        baseURL: spec.baseURL ?? '',
        apiKey: spec.apiKey,
        headers: spec.headers,
        includeUsage: true,
      }).chatModel(spec.model);
    case 'anthropic':
      return createAnthropic({ apiKey: spec.apiKey, baseURL: spec.baseURL, headers: spec.headers })(spec.model);
    case 'google':
      return createGoogleGenerativeAI({ apiKey: spec.apiKey, baseURL: spec.baseURL, headers: spec.headers })(spec.model);
  }
}

/** `provider:model` (`baton:<name>[/model]`), as used in summarizer ids, ledger dispatches and messages. */
export function describeModel(spec: PanelModelSpec): string {
  if (spec.provider === 'baton') return `baton:${spec.name}${spec.model ? `/${spec.model}` : ''}`;
  return `${spec.provider}:${spec.model}`;
}
