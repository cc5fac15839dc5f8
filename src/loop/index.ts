export { batonAgentsModel } from './adapters/agents-model.js';
export { batonContextMiddleware } from './adapters/ai-sdk-middleware.js';
export { fromLanguageModelPrompt, toLanguageModelPrompt } from './adapters/language-model-prompt.js';
export { batonPrepareStep, createFetchRawTool, fromModelMessages, toModelMessages } from './adapters/ai-sdk.js';
export { fromAnthropicMessages, toAnthropicMessages } from './adapters/anthropic-messages.js';
export { contentText, parseArgs } from './adapters/content-text.js';
export { fromLangChainMessages, toLangChainMessages } from './adapters/langchain-messages.js';
export { batonLangChainMiddleware } from './adapters/langchain-middleware.js';
export { fromOpenAIMessages, toOpenAIMessages } from './adapters/openai-messages.js';
export { classifyCommand, classifyTool } from './classify-tool.js';
export { ContextManager } from './context-manager.js';
export { createContextManager } from './create-context-manager.js';
export { MIN_BUDGET_TOKENS } from './defaults.js';
export { compactArgs } from './compact-args.js';
export { actionAges, planTurns } from './plan-turns.js';
export { MIN_SHARED_TOKENS, waterLevel } from './share-window.js';
export { diffPaths, processEditFile } from './processors/edit-file.js';
export { findErrorLines, normalizeWhitespace } from './processors/error-lines.js';
export { processGrep } from './processors/grep.js';
export { processListDir } from './processors/list-dir.js';
export { processToolOutput } from './processors/process-tool-output.js';
export { processReadFile } from './processors/read-file.js';
export { processTerminal } from './processors/terminal.js';
export { MESSAGE_SEPARATOR, renderMessage, renderToolCall } from './render-message.js';
export { parseFileView } from './snippets/parse-file-view.js';
export { callWithContextRetry, DEFAULT_RETRY_LADDER } from './retry/call-with-context-retry.js';
export { classifyModelError, isRetryableModelError } from './retry/classify-model-error.js';
export { computeDelayMs, retry } from './retry/retry.js';
export { RetryError } from './retry/retry-error.js';
export { rankSnippets, renderSnippet } from './snippets/rank-snippets.js';
export { createSnippetExtractor } from './snippets/snippet-extractor.js';

export { FileTracker } from './tracker/file-tracker.js';

export { PinnedFacts } from './tracker/pinned-facts.js';

export type { AgentsModelLike, AgentsModelRequest } from './adapters/agents-model.js';
export type { ContextAdapterOptions } from './adapters/check-adapter-args.js';
export type { AnthropicBlock, AnthropicMessage } from './adapters/anthropic-messages.js';

export type { LangChainContextMiddleware } from './adapters/langchain-middleware.js';
export type { OpenAIChatMessage } from './adapters/openai-messages.js';

export type { ContextRetryOptions } from './retry/call-with-context-retry.js';
export type { ModelErrorInfo } from './retry/classify-model-error.js';
export type { RetryOptions } from './retry/retry.js';
export type { RetryStopReason } from './retry/retry-error.js';

export type { SnippetExtractor } from './snippets/snippet-extractor.js';

export type {
  AssembledContext,
  AssembleOptions,
  AssembleOverrides,
  CategoryShares,
  ContextManagerOptions,
  ContextMessage,
  LoopEvent,
  ToolCall,
  ToolKind,
  TurnLevel,
} from './types.js';
