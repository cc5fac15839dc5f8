import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { WorkspaceOps } from '../supervisor/index.js';
import { hashFile, mapLimit, type WorkspaceSnapshot } from '../workspace/index.js';
import { worktreeGitDir } from './git.js';
import { type StagedPaths, workspaceIn } from './worktree-ops.js';

/** The first measurement of a freshly checked-out task worktree, read from its base commit. */
class BaseSnapshot {
  constructor(readonly snapshot: Promise<WorkspaceSnapshot>) {}
}

export interface SiteHooks {
  /**
   * An agent run ended well: the worker stages its work (and makes sure it has the run branch's
   * tip); what was staged, or undefined when staging failed.
   */
  agentDone(): Promise<StagedPaths | undefined>;
  /**
   * Runs once the run that ended well is measured, before its checks: a worker brings the run
   * branch's tip in under the attempt's changes there, so the checks see what would be integrated
   * and need not run again on it.
   */
  beforeChecks(): Promise<void>;
}

/**
 * A task's worktree as the supervisor measures and checks it. Right after the checkout it holds
 * the base commit's files and nothing else, so the first measurement (`first`) is read from that
 * commit, while the agent already starts, instead of from the folder before it may. When that
 * first run ends well and has left the worktree's HEAD and index as they were, its work is
 * measured from what staging it listed (the base commit's files, with the paths staged hashed
 * anew) instead of from two more git runs; anything else is measured from git's index and status.
 */
export function siteWorkspace(dir: string, first: Promise<WorkspaceSnapshot>, hooks: SiteHooks): WorkspaceOps {
  // On the task's path: normal priority (SIDE_WORK_NICENESS says why).
  const measured = workspaceIn(dir, 0);
  let base: BaseSnapshot | undefined = new BaseSnapshot(first);
  first.catch(() => undefined);
  const read = async (snapshot: unknown) => (snapshot instanceof BaseSnapshot ? snapshot.snapshot : snapshot);
  /** HEAD and the index as the first run started on them (the base commit), until a run ends. */
  let pristine: GitState | undefined;
  /** Set when an agent run ended well, until it is measured: its staging, and whether it left HEAD and the index as they were. */
  let ended: { staging: Promise<StagedPaths | undefined>; untouched: boolean } | undefined;
  /** Started when that run was measured (beside the ledger's writes); the checks wait for it. */
  let caughtUp: Promise<void> = Promise.resolve();
  return {
    ...measured,
    snapshot: async () => {
      const taken = base;
      base = undefined;
      if (taken) {
        pristine = await gitState(dir).catch(() => undefined);
        return taken;
      }
      pristine = undefined;
      const run = ended;
      ended = undefined;
      if (!run) return measured.snapshot();
      const staged = run.untouched ? await run.staging : undefined;
      const from = staged && (await first.catch(() => undefined));
      const snapshot = (staged && from && (await measureStaged(from, staged))) ?? (await measured.snapshot());
      caughtUp = hooks.beforeChecks();
      return snapshot;
    },
    diff: async (before, after) => measured.diff(await read(before), await read(after)),
    runCheck: async (command, options) => {
      await caughtUp;
      return measured.runCheck(command, options);
    },
    agentDone: () => {
      // Compared before staging rewrites the index (synchronously: nothing runs in between).
      const untouched = pristine !== undefined && unchanged(pristine);
      pristine = undefined;
      const staging = hooks.agentDone();
      staging.catch(() => undefined);
      ended = { staging, untouched };
    },
  };
}

/** A worktree's HEAD (its content) and index (its file's identity: git replaces it on every write). */
interface GitState {
  headFile: string;
  head: string;
  indexFile: string;
  index: string;
}

async function gitState(dir: string): Promise<GitState> {
  const gitDir = await worktreeGitDir(dir);
  const headFile = path.join(gitDir, 'HEAD');
  const indexFile = path.join(gitDir, 'index');
  return { headFile, head: readFileSync(headFile, 'utf8'), indexFile, index: fileIdentity(indexFile) };
}

function unchanged(state: GitState): boolean {
  try {
    return readFileSync(state.headFile, 'utf8') === state.head && fileIdentity(state.indexFile) === state.index;
  } catch {
    return false;
  }
}

function fileIdentity(file: string): string {
  const info = statSync(file, { bigint: true });
  return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** Files hashed at once (as the workspace's own snapshots do). */
const HASH_CONCURRENCY = 16;

/**
 * What a worktree holds after a run that left HEAD and the index at the base commit and whose
 * work was then staged: the base commit's files, with the paths staging added hashed and those it
 * removed gone. Undefined when a path is not as staging said (then git is asked instead).
 */
async function measureStaged(base: WorkspaceSnapshot, staged: StagedPaths): Promise<WorkspaceSnapshot | undefined> {
  const files = new Map(base.files);
  const paths = [...staged.added.map((p) => ({ p, added: true })), ...staged.removed.map((p) => ({ p, added: false }))].filter(
    ({ p }) => p !== '.baton' && !p.startsWith('.baton/'),
  );
  const hashes = await mapLimit(paths, HASH_CONCURRENCY, ({ p }) => hashFile(path.join(base.root, p)));
  for (const [i, { p, added }] of paths.entries()) {
    const hash = hashes[i];
    if (added !== (hash !== undefined)) return undefined;
    if (hash === undefined) files.delete(p);
    else files.set(p, hash);
  }
  return { root: base.root, kind: 'git', files };
}
