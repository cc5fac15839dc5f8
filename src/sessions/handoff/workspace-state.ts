import type { AgentSessionRecord } from '../../ledger/index.js';
import { git } from '../../workspace/index.js';

/** Baton's own files: never changes for the next agent to review. */
const BATON_OWN = [/^\.baton\//, /\.baton-backup$/];
const MAX_CHANGES = 25;

/**
 * The workspace now, for a handoff: the branch and head, the uncommitted changes (Baton's own
 * files left out), what the hooks measured of the session (files, failed commands with exit
 * codes: measured facts win over the transcript's) and the other recent sessions of the workspace.
 */
export async function workspaceState(
  dir: string,
  source: AgentSessionRecord | undefined,
  others: readonly AgentSessionRecord[],
): Promise<string> {
  const lines: string[] = [];
  const [branch, status] = await Promise.all([
    git(['rev-parse', '--abbrev-ref', 'HEAD'], dir).catch(() => undefined),
    git(['status', '--porcelain'], dir).catch(() => undefined),
  ]);
  if (branch?.code === 0) lines.push(`Branch: ${branch.stdout.trim()}`);
  if (status?.code === 0) {
    const changes = status.stdout
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .filter((l) => !BATON_OWN.some((re) => re.test(l.slice(3))));
    lines.push(
      changes.length === 0
        ? 'Uncommitted changes: none'
        : `Uncommitted changes: ${changes
            .slice(0, MAX_CHANGES)
            .map((l) => l.trim())
            .join('; ')}${changes.length > MAX_CHANGES ? ` (+${changes.length - MAX_CHANGES} more)` : ''}`,
    );
  }
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
