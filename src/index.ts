/**
 * Baton as a library. This list is the public API: the documented entry points and the types users
 * pass in or get back, grouped as in docs/api.md. Each module's own index.ts serves the other
 * modules and says more; test doubles live in `agent-baton/testing`, the context-replay harness in
 * `agent-baton/bench`. test/api/root-exports.test.ts pins this list, so every addition is deliberate.
 */

// The ledger (docs/ledger.md)
export {
  DEFAULT_REDIS_NAMESPACE,
  DEFAULT_SQLITE_PATH,
  DISPATCH_STATUSES,
  formatLedgerLine,
  isBreakerCapable,
  isClaimCapable,
  isFullLedger,
  isRecordCapable,
  isTransferCapable,
  MemoryLedger,
  OUTCOME_KINDS,
  openLedger,
  parseLedgerLines,
  parseLedgerSpec,
  RECORD_COLLECTIONS,
  TASK_STATUSES,
} from './ledger/index.js';
export type {
  AcceptanceCriterion,
  Breaker,
  BreakerState,
  BreakerWrite,
  Claim,
  ClaimResult,
  Dispatch,
  DispatchPatch,
  DispatchQuery,
  DispatchStatus,
  Ledger,
  LedgerBreakers,
  LedgerClaims,
  LedgerCore,
  LedgerLine,
  LedgerRecord,
  LedgerRecords,
  LedgerSpec,
  LedgerTransfer,
  NewDispatch,
  NewRecord,
  NewTask,
  OpenLedgerOptions,
  OutcomeKind,
  Page,
  RecordCollection,
  RecordPatch,
  RecordQuery,
  ReconData,
  ResearchData,
  SessionData,
  Task,
  TaskPatch,
  TaskLinks,
  TaskQuery,
  TaskStatus,
  TechDebtData,
} from './ledger/index.js';

// Errors
export { BatonError, isBatonError } from './errors/index.js';
export type { BatonErrorCode } from './errors/index.js';

// Configuration (docs/configuration.md)
export { DEFAULT_CONFIG_PATH, loadConfig } from './config/index.js';
export type { BatonConfig, BreakerConfig, LoadConfigOptions, PreContextConfig, TimeoutsConfig } from './config/index.js';

// The supervisor and its providers (docs/supervisor.md)
export {
  buildRunReport,
  CircuitBreaker,
  DEFAULT_BREAKER_SETTINGS,
  loadPlan,
  parsePlan,
  runPlan,
  workspaceOps,
} from './supervisor/index.js';
export type {
  BreakerSettings,
  CheckRun,
  CircuitBreakerOptions,
  EventSink,
  FileChanges,
  Plan,
  PlanTask,
  RunPlanOptions,
  RunReport,
  RunReportAttempt,
  RunReportTask,
  SupervisorEvent,
  WorkspaceOps,
} from './supervisor/index.js';
export {
  classifyOutcome,
  createAgentCliProvider,
  createCommandProvider,
  createHttpProvider,
  createProvider,
  createProviders,
} from './providers/index.js';
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
} from './providers/index.js';

// Pre-context and the task prompt (docs/supervisor.md)
export {
  buildHelperContext,
  buildProviderSwitchContext,
  buildRetryContext,
  HELPER_CONTEXT_MAX_ATTEMPTS,
  PRE_CONTEXT_MAX_FILES,
  PRE_CONTEXT_MAX_LINES,
  PRE_CONTEXT_TYPES,
} from './precontext/index.js';
export type {
  HelperContextInput,
  PreContextInput,
  PreContextLimits,
  PreContextType,
  ProviderSwitchContextInput,
  RetryContextInput,
} from './precontext/index.js';
export { buildTaskPrompt, loadPromptState } from './prompt/index.js';
export type { LoadPromptStateOptions, MinimalState, TaskPromptOptions } from './prompt/index.js';

// refresh_context and snapshots (docs/session-recovery.md)
export {
  buildContinuationPrompt,
  GitCache,
  listSnapshots,
  loadSnapshot,
  REFRESH_FORMATS,
  refreshContext,
  renderContext,
  saveSnapshot,
} from './refresh/index.js';
export type {
  ChangedFile,
  ContextSnapshot,
  EnvironmentState,
  GitCacheOptions,
  GitCommit,
  GitState,
  RefreshFormat,
  RefreshMetadata,
  RefreshOptions,
  RefreshResult,
  RenderedContext,
  RenderOptions,
  SnapshotIndexData,
  SourceName,
  TaskArtifacts,
  WorkflowContext,
} from './refresh/index.js';

// The MCP server (docs/mcp.md)
export { createBatonMcpServer, serveHttp, serveStdio } from './mcp/index.js';
export type { BatonMcpServer, BatonMcpServerOptions, HttpMcpServer, ServeHttpOptions } from './mcp/index.js';

// The panel and its HTTP endpoint (docs/panel.md)
export {
  buildAgentMessages,
  createPanelServer,
  fitPanelContext,
  loadPanelConfig,
  resolvePanelConfig,
  runPanel,
  startPanelServer,
  withDuplicatePrevention,
} from './panel/index.js';
export type {
  AgentMessages,
  AgentStartEvent,
  Attribution,
  BuildAgentMessagesInput,
  ContextFallbackReason,
  ContextMode,
  FitPanelContextInput,
  FitPanelContextResult,
  LoadPanelConfigOptions,
  PanelAgent,
  PanelAnswer,
  PanelBatonModelSpec,
  PanelConfig,
  PanelHttpModelSpec,
  PanelMessage,
  PanelModelSpec,
  PanelPrompt,
  PanelProviderKind,
  PanelResult,
  PanelServerOptions,
  RunningPanelServer,
  RunPanelOptions,
} from './panel/index.js';

// The agent-loop context manager (docs/loop.md)
export {
  batonAgentsModel,
  batonContextMiddleware,
  batonLangChainMiddleware,
  batonPrepareStep,
  callWithContextRetry,
  classifyModelError,
  computeDelayMs,
  ContextManager,
  createContextManager,
  createFetchRawTool,
  DEFAULT_RETRY_LADDER,
  fromAnthropicMessages,
  fromLanguageModelPrompt,
  fromModelMessages,
  fromOpenAIMessages,
  isRetryableModelError,
  MIN_BUDGET_TOKENS,
  RetryError,
  retry,
  toAnthropicMessages,
  toLanguageModelPrompt,
  toModelMessages,
  toOpenAIMessages,
} from './loop/index.js';
export type {
  AgentsModelLike,
  AgentsModelRequest,
  AnthropicBlock,
  AnthropicMessage,
  AssembledContext,
  AssembleOptions,
  AssembleOverrides,
  CategoryShares,
  ContextAdapterOptions,
  ContextManagerOptions,
  ContextMessage,
  ContextRetryOptions,
  LangChainContextMiddleware,
  LoopEvent,
  ModelErrorInfo,
  OpenAIChatMessage,
  RetryOptions,
  RetryStopReason,
  ToolCall,
  ToolKind,
  TurnLevel,
} from './loop/index.js';

// Budgets, tokens and summaries
export { packSections } from './budget/index.js';
export type { OverflowStrategy, PackedSection, PackOptions, PackResult, Section } from './budget/index.js';
export { contextLimitFor, countTokens, DEFAULT_CONTEXT_LIMIT, MODEL_CONTEXT_LIMITS, truncateToTokens } from './tokens/index.js';
export type { TokenCounter } from './tokens/index.js';
export {
  createExtractiveSummarizer,
  createLlmSummarizer,
  DiskSummaryCache,
  MemorySummaryCache,
  summarizeExtractive,
  withSummaryCache,
} from './summarize/index.js';
export type { LlmSummarizerOptions, SummarizeRequest, Summarizer, SummaryCache } from './summarize/index.js';

// Secret redaction and observability
export { redactSecrets, redactValue } from './redact/index.js';
export type { RedactResult, RedactValueResult } from './redact/index.js';
export { createLogger, renderMetrics, silentLogger } from './observability/index.js';
export type { Logger } from './observability/index.js';
