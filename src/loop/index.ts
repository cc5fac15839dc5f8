export { agentsItemKey, fromAgentsItems, toAgentsItems } from './adapters/agents-items.js';
export { batonAgentsModel } from './adapters/agents-model.js';
export { batonContextMiddleware } from './adapters/ai-sdk-middleware.js';
export { fromLanguageModelPrompt, toLanguageModelPrompt } from './adapters/language-model-prompt.js';
export { batonPrepareStep, createFetchRawTool, FETCH_RAW_TOOL, fromModelMessages, toModelMessages } from './adapters/ai-sdk.js';
export { fromAnthropicMessages, toAnthropicMessages } from './adapters/anthropic-messages.js';
export { contentText, parseArgs } from './adapters/content-text.js';
export { fromLangChainMessages, langChainMessageKey, toLangChainMessages } from './adapters/langchain-messages.js';
export { batonLangChainMiddleware } from './adapters/langchain-middleware.js';
export { fromOpenAIMessages, toOpenAIMessages } from './adapters/openai-messages.js';
export { classifyCommand, classifyTool } from './classify-tool.js';
export { ContextManager } from './context-manager.js';
export { createContextManager } from './create-context-manager.js';
export {
  DEFAULT_CATEGORY_SHARES,
  DEFAULT_COMPACT_EVERY_TURNS,
  DEFAULT_HIGH_WATER,
  DEFAULT_LOW_WATER,
  DEFAULT_MASK_AFTER_TURNS,
  DEFAULT_MAX_SNIPPETS,
  DEFAULT_RECENT_TURNS,
  DEFAULT_RESERVE_SHARE,
  DEFAULT_RESERVE_TOKENS,
  DEFAULT_SAFETY_TOKENS,
  MIN_BUDGET_TOKENS,
} from './defaults.js';
export { compactArgs } from './compact-args.js';
export { actionAges, planTurns } from './plan-turns.js';
export { diffPaths, diffStats, processEditFile } from './processors/edit-file.js';
export { ERROR_LINE, findErrorLines, normalizeWhitespace } from './processors/error-lines.js';
export { processGrep } from './processors/grep.js';
export { processListDir } from './processors/list-dir.js';
export { DEFAULT_PROCESSORS, processToolOutput } from './processors/process-tool-output.js';
export { processReadFile } from './processors/read-file.js';
export { processTerminal } from './processors/terminal.js';
export { MESSAGE_SEPARATOR, renderMessage, renderToolCall } from './render-message.js';
export { parseFileView } from './snippets/parse-file-view.js';
export { callWithContextRetry, DEFAULT_RETRY_LADDER } from './retry/call-with-context-retry.js';
export { classifyModelError, isRetryableModelError } from './retry/classify-model-error.js';
export {
  computeDelayMs,
  DEFAULT_FACTOR,
  DEFAULT_INITIAL_DELAY_MS,
  DEFAULT_JITTER,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRIES,
  retry,
} from './retry/retry.js';
export { RetryError } from './retry/retry-error.js';
export { rankSnippets, renderSnippet } from './snippets/rank-snippets.js';
export { createSnippetExtractor, DEFAULT_SNIPPET_MAX_LINES, loadGrammars } from './snippets/snippet-extractor.js';
export { extractDecisions } from './tracker/extract-decisions.js';
export { FileTracker } from './tracker/file-tracker.js';
export { LoopState } from './tracker/loop-state.js';
export { PinnedFacts } from './tracker/pinned-facts.js';
export { maskedPlaceholder } from './turn.js';
export type { AgentsInputItem } from './adapters/agents-items.js';
export type { AgentsModelLike, AgentsModelRequest } from './adapters/agents-model.js';
export type { ContextAdapterOptions } from './adapters/check-adapter-args.js';
export type { AnthropicBlock, AnthropicMessage } from './adapters/anthropic-messages.js';
export type { LanguageModelPrompt } from './adapters/language-model-prompt.js';
export type { LangChainMessageClasses, LangChainMessageLike } from './adapters/langchain-messages.js';
export type { LangChainContextMiddleware } from './adapters/langchain-middleware.js';
export type { OpenAIChatMessage } from './adapters/openai-messages.js';
export type { ToolIntent } from './classify-tool.js';
export type { ResolvedManagerOptions } from './types.js';
export type { PlannedLevel, PlanTurnsOptions } from './plan-turns.js';
export type { PinnedResult } from './tracker/pinned-facts.js';
export type { OutlineEntry, Outliner } from './processors/read-file.js';
export type { ProcessedOutput, ProcessorInput, ToolProcessor } from './processors/types.js';
export type { ContextRetryOptions } from './retry/call-with-context-retry.js';
export type { ModelErrorInfo } from './retry/classify-model-error.js';
export type { RetryOptions } from './retry/retry.js';
export type { RetryStopReason } from './retry/retry-error.js';
export type { FileView } from './snippets/parse-file-view.js';
export type { SnippetEntry } from './snippets/rank-snippets.js';
export type { SnippetExtractor } from './snippets/snippet-extractor.js';
export type { CodeSnippet, SnippetLanguage } from './snippets/types.js';
export type { Rendered, ToolResultRecord, Turn } from './turn.js';
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
