import { resolvePreContextLimits } from './defaults.js';
import { cleanValue, fitBlock, shortPath } from './fit-context.js';
import type { ContextLine, PreContextBuildOptions } from './types.js';

/** Who last changed a conflicting file on the run's branch. */
export interface ConflictAuthor {
  /** The task whose integrated commit changed the file; absent for a commit that is not Baton's. */
  taskId?: string;
  attempt?: number;
  /** The commit's subject, when it is not a task's. */
  subject?: string;
}

export interface MergeConflictContextInput extends PreContextBuildOptions {
  /** Files that conflicted when this task's result was integrated. */
  files: readonly string[];
  /** The tasks (or commits) that changed them on the run's branch meanwhile. */
  changedBy: readonly ConflictAuthor[];
}

/**
 * Builds the MERGE CONFLICT CONTEXT for the attempt that re-runs a task on the new base after its
 * passing result could not be integrated: the conflicting files, the task that changed them, what
 * to keep. Same limits and fitting as seed 000's blocks (at most 10 lines, 100 tokens). Pure;
 * returns '' when there is no conflicting file.
 *
 * @example
 * buildMergeConflictContext({ files: ['src/app.ts'], changedBy: [{ taskId: 'api', attempt: 1 }] })
 */
export function buildMergeConflictContext(input: MergeConflictContextInput): string {
  if (input.files.length === 0) return '';
  const limits = resolvePreContextLimits(input.limits);
  const authors = uniqueAuthors(input.changedBy);
  const files = cleanValue(input.files.slice(0, Math.max(1, limits.maxFiles)).map(shortPath).join(', '));
  const more = input.files.length > limits.maxFiles ? ` (+${input.files.length - limits.maxFiles} more)` : '';
  const lines: ContextLine[] = [
    {
      text: 'Your passing result conflicted with work integrated meanwhile; this attempt starts from the new base.',
      fixed: true,
      priority: 100,
    },
    { text: `Conflicting files: ${files}${more}`, priority: 90, list: true },
  ];
  if (authors.length > 0) lines.push({ text: `Changed by: ${cleanValue(authors.join(', '))}`, priority: 80, list: true });
  return fitBlock(
    'MERGE CONFLICT',
    lines,
    "Keep their changes as they now are in these files; redo this task's change on top of them.",
    limits,
  );
}

function uniqueAuthors(changedBy: readonly ConflictAuthor[]): string[] {
  const out: string[] = [];
  for (const a of changedBy) {
    const text = a.taskId ? `task ${a.taskId}${a.attempt ? ` (attempt ${a.attempt})` : ''}` : `commit "${a.subject ?? 'unknown'}"`;
    if (!out.includes(text)) out.push(text);
  }
  return out.slice(0, 3);
}
