import type { AgentSessionData, Dispatch, Ledger, LedgerRecord, ReconData, ResearchData, Task, TechDebtData } from '../ledger/index.js';
import type { GitState } from './git-types.js';

/** How much a refresh says, and for whom. */
export type RefreshFormat = 'minimal' | 'standard' | 'detailed' | 'narrative';
export const REFRESH_FORMATS: readonly RefreshFormat[] = ['minimal', 'standard', 'detailed', 'narrative'];

/** @default 50: tasks one multi-task refresh may cover (they share the format's cap). */
export const MAX_TASKS_PER_REFRESH = 50;

/** Which source a piece of the snapshot came from (reported in metadata and the audit). */
export type SourceName = 'ledger' | 'git' | 'task_artifacts' | 'workflows' | 'environment' | 'research';

export type { ChangedFile, GitCommit, GitState } from './git-types.js';

export interface TaskArtifacts {
  dir: string;
  readme?: string;
  trackingLogs: Array<{ name: string; content?: string }>;
  artifacts: Array<{ name: string; bytes: number; content?: string }>;
}

export interface WorkflowContext {
  available: string[];
  active?: string;
  phase?: string;
  content?: string;
}

export interface EnvironmentState {
  cwd: string;
  /** Names only; values never leave the process. */
  variables: string[];
}

/** Everything gathered for one refresh, before any format is applied. */
export interface ContextSnapshot {
  workspace: string;
  generatedAt: number;
  task?: Task;
  /** The task's dependencies, with their status. */
  dependencies: Array<Pick<Task, 'id' | 'title' | 'status'>>;
  /** Other active tasks, newest first (for orientation when no task is chosen). */
  activeTasks: Array<Pick<Task, 'id' | 'title' | 'status' | 'priority' | 'updatedAt'>>;
  dispatches: Dispatch[];
  /** This workspace's latest agent CLI sessions (recorded by `baton hooks`), newest first. */
  agentSessions?: Array<LedgerRecord<AgentSessionData>>;
  debt: Array<LedgerRecord<TechDebtData>>;
  research: Array<LedgerRecord<ResearchData>>;
  recon: Array<LedgerRecord<ReconData>>;
  git?: GitState;
  artifacts?: TaskArtifacts;
  workflow?: WorkflowContext;
  environment: EnvironmentState;
  sources: SourceName[];
  warnings: string[];
}

/** Caller's choices for one refresh (seed 002 §4.2, plus delta and snapshot options). */
export interface RefreshOptions {
  /** The workspace root: git, `.agent/` and `.baton/` are read relative to it. */
  workspace: string;
  ledger: Ledger;
  /** Task to focus on. @default the most recently active task */
  taskId?: string;
  /** @default 'standard' */
  format?: RefreshFormat;
  /** @default true */
  includeGit?: boolean;
  /** @default true */
  includeTechDebt?: boolean;
  /** @default true */
  includeDispatches?: boolean;
  /** @default true only for 'detailed' */
  includeTaskArtifacts?: boolean;
  /** @default true only for 'detailed' */
  includeResearch?: boolean;
  /** @default 5 */
  dispatchLimit?: number;
  /** @default 5 */
  commitLimit?: number;
  /** @default true */
  generateContinuationPrompt?: boolean;
  /** Session whose last refresh is compared for staleness. @default 'default' */
  sessionId?: string;
  /**
   * A git cache shared between calls (keyed by HEAD and the index; unstaged edits show once its
   * entry expires, 60 s by default). Without one, every call reads git, so a change made a second
   * ago shows. The MCP server passes one. @default none: git is read for each call
   */
  gitCache?: import('./git-cache.js').GitCache;
  /**
   * Read everything now: git even when `gitCache` holds a valid entry (the new state replaces it),
   * and no answer from `resultCache`. @default false
   */
  fresh?: boolean;
  /** Clock. @default Date.now */
  now?: () => number;
  /** Environment whose variable NAMES are reported. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Write an audit record to the ledger. @default true */
  audit?: boolean;
  /** Return only what changed since this ISO time, epoch ms, or snapshot id (§8.2). */
  since?: string;
  /** Save the snapshot under `.baton/snapshots/` and index it in the ledger (§8.4). @default false */
  saveSnapshot?: boolean;
  /** Tighter cap than the format's own (used to share a budget between tasks). */
  maxTokens?: number;
  /** How a client receives the result, when the render must fit that form too (MCP). @default as rendered */
  sent?: SentForm;
  /**
   * Rendered results shared between calls (the MCP server passes one per process). Used only
   * with a ledger wrapped by `trackLedgerWrites` whose backend reports a version; see result-cache.ts.
   * @default none
   */
  resultCache?: import('./result-cache.js').ResultCache<unknown>;
  /** Masks and renders on a worker thread (the MCP server passes a RenderWorker). @default in-thread */
  renderWorker?: SnapshotRenderer;
  /**
   * Awaited between the render and the bookkeeping writes, so a server can spread the many calls
   * one cold render releases at once over several event-loop turns (mcp/turn-budget.ts).
   * @default none
   */
  yieldTurn?: () => Promise<void>;
}

/**
 * The form a client hands its model, fitted by the render itself (plain data: it crosses to the
 * render worker), so one refresh renders once however the client measures.
 */
export interface SentForm {
  /**
   * Tokens are counted of the result as a JSON string (a resource read handed over as JSON, every
   * quote and newline escaped): the narrative's text, else the context and metadata as compact JSON.
   */
  escaped?: boolean;
  /** The most bytes the context and metadata may take as compact JSON (Copilot CLI's 20,480). */
  maxBytes?: number;
}

/** A snapshot rendered in one format within its cap. */
export interface RenderedContext {
  context: Record<string, unknown>;
  text: string;
  continuationPrompt?: string;
  metadata: RefreshMetadata;
}

/**
 * Everything a render needs besides the snapshot; plain data, so it can cross to a worker thread.
 * `maxTokens` is the hard cap for the whole text (@default FORMAT_TOKEN_CAPS[format]).
 */
export interface RenderJob extends Pick<RefreshOptions, 'generateContinuationPrompt' | 'maxTokens' | 'sent'> {
  format: RefreshFormat;
  now: number;
  /** Metadata known before the render; sources, warnings and redactions come from the snapshot. */
  metadata: Pick<RefreshMetadata, 'generated_at' | 'cache' | 'snapshot_id'>;
}

export interface RenderOutcome {
  /** The snapshot with secrets masked. */
  snapshot: ContextSnapshot;
  rendered: RenderedContext;
}

/** Masks and renders a gathered snapshot somewhere else than the caller's event loop (render-worker.ts). */
export interface SnapshotRenderer {
  render(raw: ContextSnapshot, job: RenderJob): Promise<RenderOutcome>;
}

export interface RefreshMetadata {
  generated_at: string;
  format: RefreshFormat;
  /** Format asked for, when it differs (detailed fell back to standard). */
  requested_format?: RefreshFormat;
  /** Real o200k token count of `text`. */
  token_estimate: number;
  token_budget: number;
  sources: SourceName[];
  warnings: string[];
  redactions: number;
  /** `result`: how the shared result cache answered (absent when the call did not use it). */
  cache: { git: 'hit' | 'miss' | 'off'; hits: number; misses: number; result?: 'hit' | 'shared' | 'miss' };
  /** Sections dropped or trimmed to stay within the budget. */
  dropped: string[];
  trimmed: string[];
  snapshot_id?: string;
}

/** The result of `refreshContext`: structured fields plus the exact text that was budgeted. */
export interface RefreshResult {
  /** JSON-ready context for the format (the seed's §4.3 fields). */
  context: Record<string, unknown>;
  /** The text an agent reads: JSON for minimal/standard/detailed, markdown for narrative. */
  text: string;
  continuation_prompt?: string;
  metadata: RefreshMetadata;
  /** The redacted snapshot the text was rendered from. */
  snapshot: ContextSnapshot;
}
