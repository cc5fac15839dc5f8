import type { BreakerConfig } from '../config/index.js';
import type { Ledger, OutcomeKind } from '../ledger/index.js';
import type { WorkspaceDiff } from '../workspace/index.js';

/** Files a run changed, measured from the workspace (never taken from the agent's word): workspace/'s WorkspaceDiff. */
export type FileChanges = WorkspaceDiff;

/** Result of one acceptance-criterion check command. */
export interface CheckRun {
  /** Exit 0 within the timeout. */
  ok: boolean;
  exitCode?: number;
  timedOut?: boolean;
  /** Captured stdout+stderr (capped). */
  output: string;
}

/** What the supervisor needs from a workspace: measure a run, run a check. */
export interface WorkspaceOps {
  snapshot(): Promise<unknown>;
  diff(before: unknown, after: unknown): Promise<FileChanges> | FileChanges;
  runCheck(command: string, options: { timeoutMs: number }): Promise<CheckRun>;
}

/** Breaker timings (REFERENCE.md's outcome table): config's BreakerConfig, as runPlan and CircuitBreaker take them. */
export type BreakerSettings = BreakerConfig;

/** Progress events for displays (the CLI's live line, the demo's seam printout). */
export type SupervisorEvent =
  | { type: 'task-start'; taskId: string; firstAttempt: number; maxAttempts: number }
  | { type: 'attempt-start'; taskId: string; attempt: number }
  | { type: 'dispatch-start'; taskId: string; attempt: number; provider: string; mode?: string }
  | { type: 'dispatch-end'; taskId: string; attempt: number; provider: string; outcome: OutcomeKind; mode?: string; signal?: string }
  | { type: 'breaker-skip'; taskId: string; provider: string; until?: number }
  | { type: 'waiting'; taskId: string; untilMs: number }
  | { type: 'claim-wait'; taskId: string; holder: string; untilMs: number }
  | { type: 'stale-agent-ended'; taskId: string; attempt: number; pid: number; signal: 'SIGTERM' | 'SIGKILL'; gone: boolean }
  | { type: 'context'; taskId: string; attempt: number; kind: 'circuit_breaker' | 'retry' | 'helper' | 'merge_conflict'; text: string }
  | { type: 'validation'; taskId: string; attempt: number; passed: boolean; errors: string[] }
  | { type: 'helper-checks'; taskId: string; attempt: number; checks: { criterion: string; command: string; ok: boolean }[] }
  | { type: 'task-end'; taskId: string; status: string; reason?: string }
  /** The task was not run here: another run finished it (or blocked it) first. */
  | { type: 'task-skip'; taskId: string; status: string; reason: string }
  /** A passing attempt's result was integrated (ok, with where the time went in ms), or not, and why. */
  | { type: 'integration'; taskId: string; attempt: number; ok: boolean; detail: string; timings?: Readonly<Record<string, number>> }
  /** Something the user should know about the run as a whole (where its results went, say). */
  | { type: 'notice'; message: string };

export type EventSink = (event: SupervisorEvent) => void;

/** Shared plumbing every supervisor part receives. */
export interface SupervisorDeps {
  ledger: Ledger;
  /** Identifies this process in claims, breaker probes and dispatches. */
  owner: string;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  onEvent: EventSink;
}
