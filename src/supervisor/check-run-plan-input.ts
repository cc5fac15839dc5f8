import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';

/** The options this file checks, loosely typed (their types are checked by run-plan-schema.ts first). */
export interface WorkspaceInput {
  workspaceDir?: unknown;
  concurrency?: unknown;
  sites?: unknown;
}

/**
 * Fails at once, naming the field, for a workspace runPlan cannot run in: a workspaceDir that is
 * not an existing folder (each task's run would fail on it, again after each backoff), several
 * tasks at once sharing one folder. Returns workspaceDir, absolute.
 */
export async function checkWorkspaceInput(options: WorkspaceInput): Promise<string> {
  const given = options.workspaceDir;
  if (typeof given !== 'string' || given.trim() === '') {
    throw invalid('workspaceDir', `runPlan: workspaceDir must be the path of the folder agents work in; got ${String(given)}`);
  }
  const dir = path.resolve(given);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new BatonError(
      'WORKSPACE_NOT_SET',
      `runPlan: workspaceDir ${dir} ${info ? 'is not a folder' : 'does not exist'}: agents work and checks run in it, so it must be an existing folder`,
      { details: { field: 'workspaceDir', value: given } },
    );
  }
  const concurrency = options.concurrency ?? 1;
  if (typeof concurrency === 'number' && concurrency > 1 && options.sites === undefined) {
    throw invalid(
      'concurrency',
      `runPlan: concurrency ${concurrency} needs sites (a working copy per task, such as git worktrees); without them tasks would share ${dir}`,
    );
  }
  return dir;
}

function invalid(field: string, message: string): BatonError {
  return new BatonError('INPUT_INVALID', message, { details: { field } });
}
