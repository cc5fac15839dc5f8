export { AGENT_CLI_SPECS } from './agents/index.js';
export { CLAUDE_WORKSPACE_TOOLS } from './agents/claude.js';

export { parseGeminiOutput } from './agents/gemini.js';

export { classifyHttpError } from './classify/classify-http-error.js';
export { classifyOutcome } from './classify/classify-outcome.js';

export { stripEchoedPrompt } from './classify/strip-prompt.js';
export { parseEpochOrDate, parseResetAt } from './classify/parse-reset-at.js';
export { createAgentCliProvider, MAX_ARGV_PROMPT_BYTES } from './cli-provider.js';
export { parseCommandOutput } from './command-outcome-line.js';
export { createCommandProvider } from './command-provider.js';
export { createProvider, createProviders } from './create-provider.js';
export { providerConfigSchema } from './provider-config-schema.js';
export { createHttpProvider } from './http-provider.js';
export { lazyAiSdkModel } from './model/ai-sdk-model.js';
export { DEFAULT_KILL_GRACE_MS, runProcess } from './process/run-process.js';
export { identifyProcess, liveGroupMembers } from './process/process-identity.js';

export type {
  AgentCliProviderConfig,
  AgentCliType,
  AgentPermissions,
  BaseProviderConfig,
  CommandProviderConfig,
  HttpProviderConfig,
  Outcome,
  Provider,
  ProviderConfig,
  ProviderResult,
  ProviderRunRequest,
  ProviderType,
  SecretRef,
  TokenUsage,
} from './types.js';
