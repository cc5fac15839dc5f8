/** Record types of the ledger. Timestamps are epoch milliseconds. */

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'blocked', 'archived'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface AcceptanceCriterion {
  description: string;
  /** Shell command whose exit 0 means the criterion holds. */
  check?: string;
}

export interface Task {
  id: string;
  title: string;
  instructions: string;
  intent: string;
  acceptanceCriteria: AcceptanceCriterion[];
  status: TaskStatus;
  /** Higher runs first among ready tasks. */
  priority: number;
  difficulty?: string;
  /** Agent mode (e.g. 'coder', 'researcher'). */
  mode?: string;
  dependsOn: string[];
  resultSummary?: string;
  blockReason?: string;
  /** Per-task options, e.g. `{ enable_pre_context: false }`. */
  options: Record<string, unknown>;
  /** Associations named by seed 002: skills, research ids, workflow and its current phase. */
  links: TaskLinks;
  createdAt: number;
  updatedAt: number;
  completedAt?: number;
}

export interface TaskLinks {
  skills?: string[];
  research?: string[];
  workflow?: string;
  workflowPhase?: string;
  agents?: string[];
}

/** Fields a caller supplies to create a task; the rest default. */
export type NewTask = Pick<Task, 'id' | 'title'> & Partial<Omit<Task, 'id' | 'title' | 'createdAt' | 'updatedAt'>>;
export type TaskPatch = Partial<Omit<Task, 'id' | 'createdAt'>>;

export const DISPATCH_STATUSES = ['running', 'completed', 'failed', 'interrupted'] as const;
export type DispatchStatus = (typeof DISPATCH_STATUSES)[number];

/** Outcome kinds of one provider try (REFERENCE.md's table), for schemas at the edges (CLI JSON lines, MCP input). */
export const OUTCOME_KINDS = [
  'ok',
  'rate_limited',
  'quota_exhausted',
  'auth_failed',
  'overloaded',
  'timeout',
  /** The agent process was ended by a signal it did not get from Baton (SIGKILL, SIGSEGV...). */
  'killed_by_signal',
  'context_window',
  'config_error',
  'agent_error',
  'validation_failed',
  'interrupted',
] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/**
 * An agent process as recorded while it runs. The pid is also its process group id (agents run
 * in their own group); startTime (Linux /proc/<pid>/stat field 22, clock ticks since boot) and
 * host tell this process apart from a later one that reuses the pid.
 */
export interface AgentProcess {
  pid: number;
  /** Empty when the platform has no /proc (the pid alone is then not trusted). */
  startTime: string;
  host: string;
}

/** One provider try of one attempt of one task. */
export interface Dispatch {
  id: string;
  /** Monotonic order of appends within the ledger; assigned by the ledger. */
  seq: number;
  taskId: string;
  attempt: number;
  provider: string;
  /** The model that actually ran, when the agent reported it. */
  model?: string;
  mode?: string;
  status: DispatchStatus;
  outcome?: OutcomeKind;
  exitCode?: number;
  /** Signal that ended the agent process (e.g. "SIGSEGV"), when one did. */
  signal?: string;
  /** The agent's process group, recorded right after spawn (a resumed run ends it if still alive). */
  agentProcess?: AgentProcess;
  filesCreated: string[];
  filesUpdated: string[];
  filesDeleted: string[];
  validationErrors: string[];
  /** Pre-context injected into this try's prompt, and its kind. */
  injectedContext?: string;
  contextType?: 'circuit_breaker' | 'retry' | 'helper' | 'merge_conflict';
  promptDigest?: string;
  promptPreview?: string;
  /** Short result or error text (already redacted by the writer). */
  result?: string;
  tokensIn?: number;
  tokensOut?: number;
  claimedBy?: string;
  resetAt?: number;
  startedAt: number;
  finishedAt?: number;
  durationMs?: number;
}

export type NewDispatch = Pick<Dispatch, 'taskId' | 'attempt' | 'provider'> &
  Partial<Omit<Dispatch, 'seq' | 'taskId' | 'attempt' | 'provider'>>;
/** A dispatch whose attempt number the ledger allocates (Ledger.appendNextAttempt). */
export type NewAttemptDispatch = Omit<NewDispatch, 'attempt'>;
export type DispatchPatch = Partial<Omit<Dispatch, 'id' | 'seq' | 'taskId'>>;

/** A lease on a task: while `leaseUntil` is in the future only `owner` may run it. */
export interface Claim {
  taskId: string;
  owner: string;
  leaseUntil: number;
}

export type ClaimResult = { ok: true; claim: Claim } | { ok: false; holder: Claim };

export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * A provider's circuit breaker. `generation` increases on every write, so compare-and-set on it
 * lets exactly one process move the breaker (e.g. open -> half_open to claim the single probe).
 */
export interface Breaker {
  provider: string;
  state: BreakerState;
  /** When open: the time it may move to half-open. When half-open: when the probe's claim lapses. */
  until?: number;
  failureCount: number;
  reason?: string;
  /** Who holds the half-open probe. */
  probeOwner?: string;
  generation: number;
  updatedAt: number;
}

export type BreakerWrite = Omit<Breaker, 'provider' | 'generation' | 'updatedAt'>;

/**
 * Collections of plain records that share one storage shape.
 * `sessions`: refresh_context callers and panels; `agent_sessions`: interactive sessions of agent
 * CLIs (Claude Code, Gemini CLI, Codex) recorded by their lifecycle hooks (AgentSessionData);
 * `session_imports`: per session file read by `baton sessions import` (its size, mtime and offset).
 */
export const RECORD_COLLECTIONS = [
  'debt',
  'research',
  'recon',
  'sessions',
  'snapshots',
  'audit',
  'agent_sessions',
  'session_imports',
] as const;
export type RecordCollection = (typeof RECORD_COLLECTIONS)[number];

/** Common indexed fields of every plain record; the rest lives in `data`. */
export interface LedgerRecord<T = Record<string, unknown>> {
  id: string;
  /** Indexed: e.g. debt 'open'|'resolved', session 'active'|'ended'. */
  status?: string;
  /** Indexed: the task this record belongs to. */
  taskId?: string;
  createdAt: number;
  updatedAt: number;
  data: T;
}

/** A new plain record as a caller gives it (createRecord): the ledger sets the times, and the id when absent. */
export type NewRecord<T> = Omit<LedgerRecord<T>, 'id' | 'createdAt' | 'updatedAt'> & { id?: string };

/** A record patch (updateRecord): status and taskId replace, `data` is shallow-merged. */
export interface RecordPatch<T = Record<string, unknown>> {
  status?: string;
  taskId?: string;
  data?: Partial<T>;
}

export interface TechDebtData {
  title: string;
  category?: string;
  description?: string;
  impact?: string;
  proposedSolution?: string;
  severity?: 'low' | 'medium' | 'high' | 'critical';
}
export interface ResearchData {
  topic: string;
  summary: string;
  findings?: unknown;
  sources?: unknown;
  recommendations?: unknown;
}
export interface ReconData {
  target: string;
  summary: string;
  findings?: unknown;
}
export interface SessionData {
  agent?: string;
  mode?: string;
  model?: string;
  workspace?: string;
  tokensUsed?: number;
  endedAt?: number;
  lastHead?: string;
  lastRefreshAt?: number;
  [key: string]: unknown;
}

export interface RecordQuery {
  status?: string;
  taskId?: string;
  /** Only records updated at or after this time. */
  since?: number;
  limit?: number;
  cursor?: string;
}

export interface TaskQuery {
  status?: TaskStatus | TaskStatus[];
  limit?: number;
  cursor?: string;
  /** By creation time: 'oldest' first or 'newest' first (a cursor continues in its query's order). @default 'oldest' */
  order?: 'oldest' | 'newest';
}

export interface DispatchQuery {
  taskId?: string;
  status?: DispatchStatus;
  limit?: number;
  /** Opaque cursor from a previous page (newest first). */
  cursor?: string;
}

/** A page of results; `nextCursor` is absent on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** One line of an export: every record of every kind, self-describing. */
export type LedgerLine =
  | { kind: 'task'; record: Task }
  | { kind: 'dispatch'; record: Dispatch }
  | { kind: 'breaker'; record: Breaker }
  | { kind: 'claim'; record: Claim }
  | { kind: 'record'; collection: RecordCollection; record: LedgerRecord };
