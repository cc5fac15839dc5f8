/**
 * Pins the library's public API: every name `baton` exports and its kind. A change here is a
 * change to the public API, so it also belongs in docs/api.md and, when a name moves or goes
 * away, in CHANGELOG.md.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as baton from '../../src/index.js';

const ROOT_INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

function kindOf(value: unknown): string {
  if (typeof value === 'function') return /^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The names of `export type { … }` statements, read from the source (types do not exist at run time). */
function typeExports(): string[] {
  const source = ts.createSourceFile(ROOT_INDEX, readFileSync(ROOT_INDEX, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    if (!statement.exportClause) throw new Error('src/index.ts must list its exports by name (found `export *`)');
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) {
      if (statement.isTypeOnly || element.isTypeOnly) names.push(element.name.text);
    }
  }
  return names.sort();
}

describe('the root export', () => {
  it('lists its values by name and kind', () => {
    const values = Object.fromEntries(
      Object.keys(baton)
        .sort()
        .map((name) => [name, kindOf((baton as Record<string, unknown>)[name])]),
    );
    expect(values).toMatchInlineSnapshot(`
      {
        "BatonError": "class",
        "CircuitBreaker": "class",
        "ContextManager": "class",
        "DEFAULT_BREAKER_SETTINGS": "object",
        "DEFAULT_CONFIG_PATH": "string",
        "DEFAULT_CONTEXT_LIMIT": "number",
        "DEFAULT_REDIS_NAMESPACE": "string",
        "DEFAULT_RETRY_LADDER": "array",
        "DEFAULT_SQLITE_PATH": "string",
        "DISPATCH_STATUSES": "array",
        "DiskSummaryCache": "class",
        "HELPER_CONTEXT_MAX_ATTEMPTS": "number",
        "MODEL_CONTEXT_LIMITS": "object",
        "MemoryLedger": "class",
        "MemorySummaryCache": "class",
        "OUTCOME_KINDS": "array",
        "PRE_CONTEXT_MAX_FILES": "number",
        "PRE_CONTEXT_MAX_LINES": "number",
        "PRE_CONTEXT_TYPES": "array",
        "RECORD_COLLECTIONS": "array",
        "REFRESH_FORMATS": "array",
        "RetryError": "class",
        "TASK_STATUSES": "array",
        "batonContextMiddleware": "function",
        "batonPrepareStep": "function",
        "buildAgentMessages": "function",
        "buildContinuationPrompt": "function",
        "buildHelperContext": "function",
        "buildProviderSwitchContext": "function",
        "buildRetryContext": "function",
        "buildRunReport": "function",
        "buildTaskPrompt": "function",
        "callWithContextRetry": "function",
        "classifyModelError": "function",
        "classifyOutcome": "function",
        "computeDelayMs": "function",
        "contextLimitFor": "function",
        "countTokens": "function",
        "createAgentCliProvider": "function",
        "createBatonMcpServer": "function",
        "createCommandProvider": "function",
        "createContextManager": "function",
        "createExtractiveSummarizer": "function",
        "createFetchRawTool": "function",
        "createHttpProvider": "function",
        "createLlmSummarizer": "function",
        "createLogger": "function",
        "createPanelServer": "function",
        "createProvider": "function",
        "createProviders": "function",
        "fitPanelContext": "function",
        "formatLedgerLine": "function",
        "fromAnthropicMessages": "function",
        "fromLanguageModelPrompt": "function",
        "fromModelMessages": "function",
        "fromOpenAIMessages": "function",
        "isBatonError": "function",
        "isBreakerCapable": "function",
        "isClaimCapable": "function",
        "isFullLedger": "function",
        "isRecordCapable": "function",
        "isRetryableModelError": "function",
        "isTransferCapable": "function",
        "listSnapshots": "function",
        "loadConfig": "function",
        "loadPanelConfig": "function",
        "loadPlan": "function",
        "loadPromptState": "function",
        "loadSnapshot": "function",
        "openLedger": "function",
        "packSections": "function",
        "parseLedgerLines": "function",
        "parseLedgerSpec": "function",
        "parsePlan": "function",
        "redactSecrets": "function",
        "redactValue": "function",
        "refreshContext": "function",
        "renderContext": "function",
        "renderMetrics": "function",
        "resolvePanelConfig": "function",
        "retry": "function",
        "runPanel": "function",
        "runPlan": "function",
        "saveSnapshot": "function",
        "serveHttp": "function",
        "serveStdio": "function",
        "silentLogger": "object",
        "startPanelServer": "function",
        "summarizeExtractive": "function",
        "toAnthropicMessages": "function",
        "toLanguageModelPrompt": "function",
        "toModelMessages": "function",
        "toOpenAIMessages": "function",
        "truncateToTokens": "function",
        "withDuplicatePrevention": "function",
        "withSummaryCache": "function",
      }
    `);
  });

  it('lists its types by name', () => {
    expect(typeExports()).toMatchInlineSnapshot(`
      [
        "AcceptanceCriterion",
        "AgentCliProviderConfig",
        "AgentCliType",
        "AgentMessages",
        "AgentStartEvent",
        "AnthropicBlock",
        "AnthropicMessage",
        "AssembleOptions",
        "AssembleOverrides",
        "AssembledContext",
        "Attribution",
        "BaseProviderConfig",
        "BatonConfig",
        "BatonErrorCode",
        "BatonMcpServer",
        "BatonMcpServerOptions",
        "Breaker",
        "BreakerConfig",
        "BreakerSettings",
        "BreakerState",
        "BreakerWrite",
        "BuildAgentMessagesInput",
        "CategoryShares",
        "ChangedFile",
        "CheckRun",
        "CircuitBreakerOptions",
        "Claim",
        "ClaimResult",
        "CommandProviderConfig",
        "ContextFallbackReason",
        "ContextManagerOptions",
        "ContextMessage",
        "ContextMode",
        "ContextRetryOptions",
        "ContextSnapshot",
        "Dispatch",
        "DispatchPatch",
        "DispatchQuery",
        "DispatchStatus",
        "EnvironmentState",
        "EventSink",
        "FileChanges",
        "FitPanelContextInput",
        "FitPanelContextResult",
        "GitCommit",
        "GitState",
        "HelperContextInput",
        "HttpMcpServer",
        "HttpProviderConfig",
        "Ledger",
        "LedgerBreakers",
        "LedgerClaims",
        "LedgerCore",
        "LedgerLine",
        "LedgerRecord",
        "LedgerRecords",
        "LedgerSpec",
        "LedgerTransfer",
        "LlmSummarizerOptions",
        "LoadConfigOptions",
        "LoadPanelConfigOptions",
        "LoadPromptStateOptions",
        "Logger",
        "LoopEvent",
        "MinimalState",
        "ModelErrorInfo",
        "NewDispatch",
        "NewTask",
        "OpenAIChatMessage",
        "OpenLedgerOptions",
        "Outcome",
        "OutcomeKind",
        "OverflowStrategy",
        "PackOptions",
        "PackResult",
        "PackedSection",
        "Page",
        "PanelAgent",
        "PanelAnswer",
        "PanelBatonModelSpec",
        "PanelConfig",
        "PanelHttpModelSpec",
        "PanelMessage",
        "PanelModelSpec",
        "PanelPrompt",
        "PanelProviderKind",
        "PanelResult",
        "PanelServerOptions",
        "Plan",
        "PlanTask",
        "PreContextConfig",
        "PreContextLimits",
        "PreContextType",
        "Provider",
        "ProviderConfig",
        "ProviderResult",
        "ProviderRunRequest",
        "ProviderSwitchContextInput",
        "ProviderType",
        "ReconData",
        "RecordCollection",
        "RecordQuery",
        "RedactResult",
        "RedactValueResult",
        "RefreshFormat",
        "RefreshMetadata",
        "RefreshOptions",
        "RefreshResult",
        "RenderOptions",
        "RenderedContext",
        "ResearchData",
        "RetryContextInput",
        "RetryOptions",
        "RetryStopReason",
        "RunPanelOptions",
        "RunPlanOptions",
        "RunReport",
        "RunReportAttempt",
        "RunReportTask",
        "RunningPanelServer",
        "SecretRef",
        "Section",
        "ServeHttpOptions",
        "SessionData",
        "SnapshotIndexData",
        "SourceName",
        "SummarizeRequest",
        "Summarizer",
        "SummaryCache",
        "SupervisorEvent",
        "Task",
        "TaskArtifacts",
        "TaskLinks",
        "TaskPatch",
        "TaskPromptOptions",
        "TaskQuery",
        "TaskStatus",
        "TechDebtData",
        "TimeoutsConfig",
        "TokenCounter",
        "TokenUsage",
        "ToolCall",
        "ToolKind",
        "TurnLevel",
        "WorkflowContext",
        "WorkspaceOps",
      ]
    `);
  });

  it('keeps the replay harness and internals out of the library', () => {
    const names = Object.keys(baton);
    for (const internal of ['runContextBench', 'quantile', 'FACT_ERROR_LINE', 'SHARED_TRAJECTORY_DIR', 'normalizeWhitespace', 'materializeTask', 'newId', 'counter', 'gauge', 'histogram']) {
      expect(names).not.toContain(internal);
    }
  });
});
