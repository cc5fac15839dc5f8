/** What refresh reads from git; its own file so the git cache and the refresh types do not import each other. */

/** One changed file in the working tree. */
export interface ChangedFile {
  path: string;
  /** Two-letter porcelain status, e.g. 'M.', '.M', 'A.', '??'. */
  status: string;
  staged: boolean;
  added?: number;
  deleted?: number;
}

export interface GitCommit {
  sha: string;
  subject: string;
  author: string;
  /** Epoch milliseconds. */
  at: number;
}

/** What git says about the working tree, as cached. */
export interface GitState {
  head: string | undefined;
  branch: string | undefined;
  uncommitted: number;
  staged: number;
  untracked: number;
  changedFiles: ChangedFile[];
  /** `git diff --stat`-like summary: "+120 -30 in 5 files". */
  diffSummary: string;
  recentCommits: GitCommit[];
  /** Full diff of tracked changes (only gathered for `detailed`), already cut to a size limit. */
  diff?: string;
  /** What could not be read (a failed diff): copied into the refresh's `metadata.warnings`. */
  warnings?: string[];
}
