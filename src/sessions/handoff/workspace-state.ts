import type { AgentSessionRecord } from '../../ledger/index.js';
import { git } from '../../workspace/index.js';

/** Baton's own files: never changes for the next agent to review. */
const BATON_OWN = [/^\.baton\//, /\.baton-backup$/];
const MAX_CHANGES = 25;

/**
 * The workspace's git state for a handoff: its branch and uncommitted changes (Baton's own files
 * left out), from one `git status --porcelain --branch`; none outside a git repository.
 */
export async function workspaceGitLines(dir: string): Promise<string[]> {
  const status = await git(['status', '--porcelain', '--branch'], dir).catch(() => undefined);
  if (status?.code !== 0) return [];
  const lines: string[] = [];
  const all = status.stdout.split('\n').filter((l) => l.trim().length > 0);
  const head = all[0]?.startsWith('## ') ? all[0].slice(3) : undefined;
  if (head !== undefined) lines.push(`Branch: ${branchOf(head)}`);
  const changes = all.filter((l) => !l.startsWith('## ')).filter((l) => !BATON_OWN.some((re) => re.test(l.slice(3))));
  lines.push(
    changes.length === 0
      ? 'Uncommitted changes: none'
      : `Uncommitted changes: ${changes
          .slice(0, MAX_CHANGES)
          .map((l) => l.trim())
          .join('; ')}${changes.length > MAX_CHANGES ? ` (+${changes.length - MAX_CHANGES} more)` : ''}`,
  );
  return lines;
}

/** The branch of `git status --branch`'s header: `main...origin/main [ahead 1]`, `No commits yet on main`, `HEAD (no branch)`. */
function branchOf(header: string): string {
  const name = header.replace(/^(No commits yet on|Initial commit on) /, '');
  if (name.startsWith('HEAD (no branch)')) return 'HEAD';
  return name.split('...')[0]?.split(' ')[0] ?? name;
}

/**
 * The workspace now, for a handoff: the branch and the uncommitted changes (workspaceGitLines;
 * pass them when already started), what the hooks measured of the session (files, failed
 * commands with exit codes: measured facts win over the transcript's) and the other recent
 * sessions of the workspace.
 */
export async function workspaceState(
  dir: string,
  source: AgentSessionRecord | undefined,
  others: readonly AgentSessionRecord[],
  gitLines: Promise<string[]> = workspaceGitLines(dir),
): Promise<string> {
  const lines = [...(await gitLines)];
  if (source && source.data.origin !== 'import') {
    const d = source.data;
    const files = [...d.filesCreated, ...d.filesUpdated, ...d.filesDeleted];
    if (files.length > 0) lines.push(`Files the session changed (measured): ${files.join(', ')}`);
    const last = d.failures.at(-1);
    if (last)
      lines.push(
        `Last failed command (measured): ${last.command}${last.exitCode === undefined ? '' : ` exited ${last.exitCode}`}${last.error ? `: ${last.error}` : ''}`,
      );
  }
  for (const other of others.slice(0, 3)) lines.push(`Earlier: ${other.data.summary}`);
  return lines.join('\n');
}
