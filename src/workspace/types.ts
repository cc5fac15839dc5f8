/** Content of every file in a workspace at one moment, for measuring what a run changed. */
export interface WorkspaceSnapshot {
  /** Absolute workspace folder. */
  root: string;
  /** How files were listed: git (status + index) or a plain walk with ignores. */
  kind: 'git' | 'plain';
  /** Workspace-relative path (forward slashes) -> git blob sha1 of its content. */
  files: ReadonlyMap<string, string>;
}

/** Files a run changed, measured (not taken from the agent's word); each list sorted. */
export interface WorkspaceDiff {
  created: string[];
  updated: string[];
  deleted: string[];
}

/** One check command's result. */
export interface CheckResult {
  /** Exit code 0 within the time limit. */
  ok: boolean;
  /** Undefined when the command was killed or could not start. */
  exitCode?: number;
  /** stdout and stderr interleaved, capped (head and tail kept). */
  output: string;
  outputTruncated: boolean;
  timedOut: boolean;
  durationMs: number;
}
