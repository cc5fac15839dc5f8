import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../errors/index.js';
import { DEFAULT_MAX_FILE_CHARS } from './read-task-artifacts.js';
import { resolveInsideWorkspace } from './safe-path.js';
import type { WorkflowContext } from './types.js';

/**
 * Lists `.agent/workflows/*.md` and, when the task names a workflow (`task.links.workflow`), reads
 * it with the phase recorded for the task. Missing folder: empty list, no warning.
 */
export async function readWorkflow(
  workspace: string,
  links: { workflow?: string; workflowPhase?: string } | undefined,
  warnings: string[],
): Promise<WorkflowContext | undefined> {
  const rel = path.join('.agent', 'workflows');
  const files = await readdir(path.join(workspace, rel)).catch(() => [] as string[]);
  const available = files
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -3))
    .sort();
  if (available.length === 0 && !links?.workflow) return undefined;
  const active = links?.workflow?.replace(/\.md$/, '');
  let content: string | undefined;
  if (active) {
    try {
      const real = await resolveInsideWorkspace(workspace, path.join(rel, `${active}.md`));
      const text = await readFile(real, 'utf8');
      content = text.length > DEFAULT_MAX_FILE_CHARS ? text.slice(0, DEFAULT_MAX_FILE_CHARS) : text;
    } catch (error) {
      warnings.push(`Workflow "${active}": ${errorMessage(error)}`);
    }
  }
  return { available, active, phase: links?.workflowPhase, content };
}
