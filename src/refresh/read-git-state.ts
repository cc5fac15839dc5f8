// The file, not the module's index: the index also carries run-check, which pulls in the providers.
import { runGit } from '../workspace/index.js';
import { errorMessage } from '../errors/index.js';
import type { ChangedFile, GitCommit, GitState } from './git-types.js';

/** @default 200: changed files listed (and diffed) at most; the counts stay exact. */
const MAX_CHANGED_FILES = 200;
/** @default 200_000: characters of full diff read for `detailed` before cutting. */
export const DEFAULT_MAX_DIFF_CHARS = 200_000;

export interface ReadGitStateOptions {
  /** @default 5 */
  commitLimit?: number;
  /** Also read the full diff of tracked changes. @default false */
  includeDiff?: boolean;
  /** @default DEFAULT_MAX_DIFF_CHARS */
  maxDiffChars?: number;
  /**
   * A read ahead of need (the MCP server's warm-up): git runs at a low CPU priority, so it takes
   * mostly the time the server's start-up leaves idle. @default false
   */
  background?: boolean;
}

/**
 * Unix nice of a background read's git. Measured with `npm run bench -- cold` on 50,000 files:
 * at 19 git waited until `initialize` was answered and held up the first refresh_context instead
 * (1.3-1.6x `git status`), at 10 it held up the answer (1.36x the peer's), at 15 both stayed
 * within their targets (1.25x, 1.2x).
 */
const BACKGROUND_NICENESS = 15;

/**
 * Reads branch, change counts, a diff summary, the last commits and (optionally) the full diff.
 * Status, log and the numstat diff run at once: `git diff HEAD --numstat` over the whole tree
 * costs about one `git status` either way (limiting it to the changed paths does not make it
 * cheaper on a 50,000-file tree, since git still walks the index and HEAD), so running it beside
 * status instead of after it halves the wait. The full diff for `detailed` still follows status,
 * limited to the changed paths. Throws when `cwd` is not inside a git repository; a diff that
 * fails on a repository that has commits leaves a warning in `warnings` (§6.5), not silence.
 */
export async function readGitState(cwd: string, options: ReadGitStateOptions = {}): Promise<GitState> {
  const commitLimit = options.commitLimit ?? 5;
  const failures: { numstat?: unknown; diff?: unknown } = {};
  const nice = options.background ? BACKGROUND_NICENESS : 0;
  const [status, log, numstat] = await Promise.all([
    runGit(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'], cwd, undefined, nice),
    commitLimit > 0
      ? runGit(['log', `-n${commitLimit}`, '--format=%H%x1f%s%x1f%an%x1f%ct%x1e'], cwd, undefined, nice).catch(() => ({
          stdout: '',
          truncated: false,
        }))
      : Promise.resolve({ stdout: '', truncated: false }),
    // Fails on an unborn branch (no HEAD yet); judged below, once status says whether HEAD exists.
    runGit(['diff', 'HEAD', '--numstat', '-z'], cwd, undefined, nice).catch((error: unknown) => {
      failures.numstat = error;
      return undefined;
    }),
  ]);
  const parsed = parseStatus(status.stdout);
  // Baton's own state (.baton/: ledger, snapshots) is not the agent's work in progress.
  parsed.files = parsed.files.filter((file) => !file.path.startsWith('.baton/'));
  const tracked = parsed.files.filter((file) => file.status !== '??').slice(0, MAX_CHANGED_FILES);
  const hasHead = parsed.head !== undefined;
  // Status paths are relative to the repository root; pathspecs would be relative to cwd.
  const diffTargets = tracked.map((file) => `:(top,literal)${file.path}`);
  const diff =
    hasHead && options.includeDiff && diffTargets.length > 0
      ? await runGit(['diff', 'HEAD', '--', ...diffTargets], cwd, options.maxDiffChars ?? DEFAULT_MAX_DIFF_CHARS, nice).catch(
          (error: unknown) => {
            failures.diff = error;
            return undefined;
          },
        )
      : undefined;
  if (numstat) applyNumstat(parsed.files, numstat.stdout);
  const warnings: string[] = [];
  if (hasHead && failures.numstat !== undefined) {
    warnings.push(`Git diff --numstat failed (${errorMessage(failures.numstat)}): line counts of changed files are missing.`);
  }
  if (failures.diff !== undefined) warnings.push(`Git diff failed (${errorMessage(failures.diff)}): the full diff is missing.`);
  const added = parsed.files.reduce((sum, file) => sum + (file.added ?? 0), 0);
  const deleted = parsed.files.reduce((sum, file) => sum + (file.deleted ?? 0), 0);
  const changed = parsed.files.filter((file) => file.status !== '??').length;
  return {
    head: parsed.head,
    branch: parsed.branch,
    uncommitted: parsed.files.length,
    staged: parsed.files.filter((file) => file.staged).length,
    untracked: parsed.files.filter((file) => file.status === '??').length,
    changedFiles: parsed.files.slice(0, MAX_CHANGED_FILES),
    diffSummary:
      parsed.files.length === 0 ? 'clean' : `+${added} -${deleted} in ${changed} tracked files, ${parsed.files.length - changed} untracked`,
    recentCommits: parseLog(log.stdout),
    diff: diff ? (diff.truncated ? `${diff.stdout}\n[diff cut at ${diff.stdout.length} characters]` : diff.stdout) : undefined,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** Where the path starts in a porcelain v2 entry: changed (1), renamed or copied (2), unmerged (u). */
const PATH_FIELD = { '1': 8, '2': 9, u: 10 };

function parseStatus(output: string): { head?: string; branch?: string; files: ChangedFile[] } {
  const entries = output.split('\0');
  const files: ChangedFile[] = [];
  let head: string | undefined;
  let branch: string | undefined;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] ?? '';
    if (entry.startsWith('# branch.oid ')) {
      const oid = entry.slice('# branch.oid '.length);
      head = oid === '(initial)' ? undefined : oid;
    } else if (entry.startsWith('# branch.head ')) {
      const name = entry.slice('# branch.head '.length);
      branch = name === '(detached)' ? undefined : name;
    } else if (/^[12u] /.test(entry)) {
      const parts = entry.split(' ');
      const xy = parts[1] ?? '..';
      files.push({ path: parts.slice(PATH_FIELD[entry[0] as '1' | '2' | 'u']).join(' '), status: xy, staged: xy[0] !== '.' });
      if (entry[0] === '2') i += 1; // a rename's original path follows as its own NUL-separated entry
    } else if (entry.startsWith('? ')) {
      files.push({ path: entry.slice(2), status: '??', staged: false });
    }
  }
  return { head, branch, files };
}

function applyNumstat(files: ChangedFile[], output: string): void {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const entries = output.split('\0');
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] ?? '';
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(entry);
    if (!match) continue;
    let file = match[3] ?? '';
    if (file === '') {
      // A rename: "added\tdeleted\t" then the old and the new path as separate entries.
      file = entries[i + 2] ?? '';
      i += 2;
    }
    const target = byPath.get(file);
    if (!target) continue;
    target.added = match[1] === '-' ? 0 : Number(match[1]);
    target.deleted = match[2] === '-' ? 0 : Number(match[2]);
  }
}

function parseLog(output: string): GitCommit[] {
  return output
    .split('\x1e')
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [sha = '', subject = '', author = '', at = '0'] = record.split('\x1f');
      return { sha: sha.slice(0, 12), subject, author, at: Number(at) * 1000 };
    });
}
