import type { LanguageModel } from 'ai';
import { definedFields } from '../../util/index.js';

/** An AI SDK 6 model object (what the provider packages return). */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** The HTTP APIs Baton speaks through the AI SDK. */
export type ModelApi = 'openai-compatible' | 'anthropic' | 'google';

export interface AiSdkModelSettings {
  api: ModelApi;
  modelId: string;
  /** The openai-compatible provider's name (it prefixes `provider`, e.g. `panel.chat`). */
  name: string;
  /** Required by openai-compatible; the others default to the vendor's endpoint. */
  baseURL?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** openai-compatible: ask for token usage in streamed answers. @default false */
  includeUsage?: boolean;
}

/** What each API's package calls itself in `model.provider`, known before the package loads. */
function providerId(settings: AiSdkModelSettings): string {
  if (settings.api === 'anthropic') return 'anthropic.messages';
  if (settings.api === 'google') return 'google.generative-ai';
  return `${settings.name}.chat`;
}

/**
 * Builds the model, importing the API's AI SDK provider package only now: each costs about 50 ms
 * to import, and most runs (agent CLIs, `baton status`, the ledger) never call an HTTP model.
 */
export async function loadAiSdkModel(settings: AiSdkModelSettings): Promise<LanguageModelV3> {
  const { apiKey, baseURL, headers } = settings;
  switch (settings.api) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic(definedFields({ apiKey, baseURL, headers }))(settings.modelId);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI(definedFields({ apiKey, baseURL, headers }))(settings.modelId);
    }
    default: {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      // The provider POSTs to `${baseURL}/chat/completions`.
      const provider = createOpenAICompatible({
        name: settings.name,
        baseURL: baseURL ?? '',
        ...definedFields({ apiKey, headers, includeUsage: settings.includeUsage }),
      });
      return provider.chatModel(settings.modelId);
    }
  }
}

/**
 * The same model as a value usable at once (for APIs that take a model synchronously): the
 * provider package loads on the first call, once. No network until the model is called.
 */
export function lazyAiSdkModel(settings: AiSdkModelSettings): LanguageModelV3 {
  let loading: Promise<LanguageModelV3> | undefined;
  const load = () => {
    loading ??= loadAiSdkModel(settings);
    return loading;
  };
  return {
    specificationVersion: 'v3',
    provider: providerId(settings),
    modelId: settings.modelId,
    get supportedUrls() {
      return load().then((model) => model.supportedUrls);
    },
    doGenerate: async (options) => (await load()).doGenerate(options),
    doStream: async (options) => (await load()).doStream(options),
  };
}
