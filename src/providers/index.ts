export { AGENT_CLI_SPECS } from './agents/index.js';
export { CLAUDE_WORKSPACE_TOOLS } from './agents/claude.js';
export { parseCodexOutput } from './agents/codex.js';
export { parseCopilotOutput } from './agents/copilot.js';
export { parseGeminiOutput } from './agents/gemini.js';
export { parseResultJson } from './agents/result-json.js';
export { classifyHttpError } from './classify/classify-http-error.js';
export { classifyOutcome } from './classify/classify-outcome.js';
export { matchKnownPhrase, matchUsageError, PHRASE_RULES } from './classify/known-phrases.js';
export { PROMPT_PLACEHOLDER, stripEchoedPrompt } from './classify/strip-prompt.js';
export { parseEpochOrDate, parseResetAt } from './classify/parse-reset-at.js';
export { createAgentCliProvider, DEFAULT_AGENT_PERMISSIONS, MAX_ARGV_PROMPT_BYTES } from './cli-provider.js';
export { parseCommandOutput } from './command-outcome-line.js';
export { createCommandProvider } from './command-provider.js';
export { createProvider, createProviders } from './create-provider.js';
export { providerConfigSchema } from './provider-config-schema.js';
export { createHttpProvider } from './http-provider.js';
export { lazyAiSdkModel, loadAiSdkModel } from './model/ai-sdk-model.js';
export { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from '../spawner/index.js';
export { DEFAULT_KILL_GRACE_MS, runProcess } from './process/run-process.js';
export { identifyProcess, liveGroupMembers, processStartTime } from './process/process-identity.js';
export type { AgentArgsOptions, AgentCliSpec, AgentRunContext, ParsedAgentOutput, StallRule } from './agents/types.js';
export type { ClassifyOutcomeInput } from './classify/classify-outcome.js';
export type { PhraseRule } from './classify/known-phrases.js';
export type { ProcessProviderOptions } from './command-provider.js';
export type { HttpProviderOptions } from './http-provider.js';
export type { AiSdkModelSettings, LanguageModelV3, ModelApi } from './model/ai-sdk-model.js';
export type { RunProcessOptions, RunProcessResult } from './process/run-process.js';
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
