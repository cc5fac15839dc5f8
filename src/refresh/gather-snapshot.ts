import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, isBatonError } from '../errors/index.js';
import type { Ledger } from '../ledger/index.js';
import type { GitCache } from './git-cache.js';
import { type LedgerContext, readLedgerContext } from './read-ledger-context.js';
import { DEFAULT_MAX_FILE_CHARS, readTaskArtifacts } from './read-task-artifacts.js';
import { resolveInsideWorkspace } from './safe-path.js';
import type { ContextSnapshot, SourceName, WorkflowContext } from './types.js';

export interface GatherOptions {
  workspace: string;
  ledger: Ledger;
  gitCache: GitCache;
  /** Read git now, whatever the cache holds. @default false */
  fresh?: boolean;
  taskId?: string;
  includeGit: boolean;
  includeGitDiff: boolean;
  includeTechDebt: boolean;
  includeDispatches: boolean;
  includeTaskArtifacts: boolean;
  includeArtifactContents: boolean;
  includeResearch: boolean;
  dispatchLimit: number;
  commitLimit: number;
  env: NodeJS.ProcessEnv;
  now: number;
}

export interface GatherResult {
  snapshot: ContextSnapshot;
  gitCache: 'hit' | 'miss' | 'off';
}

const EMPTY_LEDGER: LedgerContext = {
  dependencies: [],
  activeTasks: [],
  dispatches: [],
  debt: [],
  research: [],
  recon: [],
};

/**
 * Queries every source in parallel and never fails as a whole: a source that throws (not a git
 * repository, a ledger that is down, an unreadable folder) leaves a warning and an empty part.
 * An unknown explicit task id is the one error that propagates (NOT_FOUND), since the caller asked
 * for something that does not exist.
 */
export async function gatherSnapshot(options: GatherOptions): Promise<GatherResult> {
  const warnings: string[] = [];
  const sources: SourceName[] = ['environment'];
  const ledgerPart = readLedgerContext(options.ledger, options);
  const gitPart = options.includeGit
    ? options.gitCache.get(options.workspace, {
        commitLimit: options.commitLimit,
        includeDiff: options.includeGitDiff,
        fresh: options.fresh,
      })
    : Promise.resolve(undefined);
  const [ledgerResult, gitResult] = await Promise.allSettled([ledgerPart, gitPart]);

  let ledger = EMPTY_LEDGER;
  if (ledgerResult.status === 'fulfilled') {
    ledger = ledgerResult.value;
    sources.push('ledger');
    if (options.includeResearch) sources.push('research');
  } else {
    if (isBatonError(ledgerResult.reason, 'NOT_FOUND')) throw ledgerResult.reason;
    warnings.push(`Ledger unavailable: ${errorMessage(ledgerResult.reason)}`);
  }

  let git: ContextSnapshot['git'];
  let gitCache: GatherResult['gitCache'] = 'off';
  if (gitResult.status === 'fulfilled' && gitResult.value) {
    git = gitResult.value.state;
    gitCache = gitResult.value.hit ? 'hit' : 'miss';
    sources.push('git');
  } else if (gitResult.status === 'rejected') {
    warnings.push(`Git status failed: ${errorMessage(gitResult.reason)}`);
  }

  const taskId = ledger.task?.id ?? options.taskId;
  const [artifactsResult, workflowResult] = await Promise.allSettled([
    options.includeTaskArtifacts && taskId
      ? readTaskArtifacts(options.workspace, taskId, { includeContents: options.includeArtifactContents, warnings })
      : Promise.resolve(undefined),
    readWorkflow(options.workspace, ledger.task?.links, warnings),
  ]);
  const artifacts = settled(artifactsResult, 'Task artifacts', warnings);
  const workflow = settled(workflowResult, 'Workflows', warnings);
  if (artifacts) sources.push('task_artifacts');
  if (workflow) sources.push('workflows');

  return {
    snapshot: {
      workspace: options.workspace,
      generatedAt: options.now,
      ...ledger,
      git,
      artifacts,
      workflow,
      environment: {
        cwd: options.workspace,
        variables: Object.keys(options.env)
          .filter((name) => RELEVANT_VARIABLES.test(name))
          .sort(),
      },
      sources,
      warnings,
    },
    gitCache,
  };
}

function settled<T>(result: PromiseSettledResult<T>, label: string, warnings: string[]): T | undefined {
  if (result.status === 'fulfilled') return result.value;
  warnings.push(`${label} unavailable: ${errorMessage(result.reason)}`);
  return undefined;
}

// Environment variable names that tell an agent which tools and accounts are configured; values never leave.
const RELEVANT_VARIABLES =
  /^(BATON_|GIT_|NODE_ENV$|CI$|PROJECT|WORKSPACE|VIRTUAL_ENV$|CONDA_|GOOGLE_|GEMINI_|ANTHROPIC_|OPENAI_|CLAUDE_|CURSOR_|GITHUB_|GH_|AWS_PROFILE$|AWS_REGION$|DATABASE_URL$|REDIS_URL$|MCP_)/;

/**
 * Lists `.agent/workflows/*.md` and, when the task names a workflow (`task.links.workflow`), reads
 * it with the phase recorded for the task. Missing folder: empty list, no warning.
 */
async function readWorkflow(
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
