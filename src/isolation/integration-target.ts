import { git, gitOk } from '../workspace/index.js';

/** @default 120_000: a fetch or push that hangs (a network remote gone quiet) fails instead. */
export const REMOTE_GIT_TIMEOUT_MS = 120_000;

/** What a compare-and-swap push came to. */
export type PushResult = { ok: true } | { ok: false; race: true } | { ok: false; race: false; error: string; final: boolean };

/** The branch a run's results land on, and how to read and move it. */
export interface IntegrationTarget {
  /** The branch's name in messages: `main`, or `origin/main` for a remote's. */
  readonly name: string;
  /** The branch's tip now, as a commit id (a worker fetches it first). */
  fetchTip(): Promise<string>;
  /**
   * Pushes HEAD of the worktree `dir` to the branch, which only moves as a fast-forward (the
   * compare-and-swap), and to the task's branch, both or neither (`git push --atomic`).
   */
  push(dir: string, taskBranch: string): Promise<PushResult>;
  /** The commit `taskBranch` holds on the target's side (a remote's: fetched), if it exists. */
  readTaskBranch(taskBranch: string): Promise<string | undefined>;
}

/** Runs `work` after every earlier call has settled. */
export type Serializer = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * A remote's branch (`baton worker`): fetched into the clone's tracking ref, pushed to over the
 * remote's own transport. Both write the tracking ref, so they go through `serialize`, one at a
 * time per clone.
 */
export function remoteTarget(repo: string, remote: string, branch: string, serialize: Serializer): IntegrationTarget {
  const tracking = `refs/remotes/${remote}/${branch}`;
  const fetch = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote, `+refs/heads/${branch}:${tracking}`];
  return {
    name: `${remote}/${branch}`,
    fetchTip: () =>
      serialize(async () => {
        await gitOk(fetch, repo, { timeoutMs: REMOTE_GIT_TIMEOUT_MS });
        return gitOk(['rev-parse', '--verify', `${tracking}^{commit}`], repo);
      }),
    push: (dir, taskBranch) => serialize(() => pushTo(dir, remote, branch, taskBranch, [])),
    readTaskBranch: (taskBranch) =>
      serialize(async () => {
        const ref = `refs/remotes/${remote}/${taskBranch}`;
        const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote, `+refs/heads/${taskBranch}:${ref}`];
        if ((await git(args, repo, { timeoutMs: REMOTE_GIT_TIMEOUT_MS })).code !== 0) return undefined;
        return gitOk(['rev-parse', '--verify', `${ref}^{commit}`], repo);
      }),
  };
}

/**
 * The repository's own branch (`--concurrency`): read by ref, pushed to the repository itself. A
 * working tree that has the branch checked out follows it (receive.denyCurrentBranch=updateInstead:
 * git refuses when that tree has uncommitted changes, or an untracked file where the push writes
 * one, and such a refusal is final: only the user can resolve it). After the user checked out
 * another branch, results still go to this one, by ref.
 */
export function localTarget(repo: string, branch: string): IntegrationTarget {
  const receivePack = 'git -c receive.denyCurrentBranch=updateInstead -c maintenance.auto=false -c gc.auto=0 receive-pack';
  return {
    name: branch,
    fetchTip: () => gitOk(['rev-parse', '--verify', `refs/heads/${branch}^{commit}`], repo),
    readTaskBranch: async (taskBranch) => {
      const read = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${taskBranch}^{commit}`], repo);
      return read.code === 0 ? read.stdout.trim() : undefined;
    },
    async push(dir, taskBranch) {
      const pushed = await pushTo(dir, repo, branch, taskBranch, [`--receive-pack=${receivePack}`]);
      if (pushed.ok || pushed.race) return pushed;
      const untracked = /Untracked working tree file '(.+)' would be overwritten/.exec(pushed.error)?.[1];
      if (untracked) {
        const error = `${untracked} is an untracked file in ${repo} (left as it was), where the task's result adds a file: move it away or commit it`;
        return { ...pushed, final: true, error };
      }
      if (/Working directory has (unstaged|staged) changes/.test(pushed.error)) {
        const error = `${repo} has uncommitted changes to tracked files, which Baton does not mix with its results: commit or stash them`;
        return { ...pushed, final: true, error };
      }
      return pushed;
    },
  };
}

async function pushTo(dir: string, to: string, branch: string, taskBranch: string, extra: readonly string[]): Promise<PushResult> {
  const args = ['push', '--porcelain', '--atomic', ...extra, to, `+HEAD:refs/heads/${taskBranch}`, `HEAD:refs/heads/${branch}`];
  const pushed = await git(args, dir, { timeoutMs: REMOTE_GIT_TIMEOUT_MS });
  if (pushed.code === 0) return { ok: true };
  const rejected = rejection(pushed.stdout, branch);
  if (rejected === 'non-fast-forward' || rejected === 'fetch first' || rejected === 'stale info') return { ok: false, race: true };
  const remote = remoteLines(pushed.stderr);
  const said = [rejected, ...remote, ...gitErrors(pushed.stderr)].filter(Boolean).join('; ');
  // The remote refused the push (a hook, a policy, no write access): only its owner can change
  // that, so no attempt of the agent's would; a push that failed on the way is tried again.
  const refusedByRemote = rejected !== undefined || remote.length > 0 || WRITE_REFUSED.test(pushed.stderr);
  return { ok: false, race: false, final: refusedByRemote, error: said || `git push exited ${pushed.code}` };
}

/** A remote that lets this clone read but not write (git daemon, an HTTP 403, ssh without the right). */
const WRITE_REFUSED = /remote error:|access denied|permission denied|returned error: 403|read-only/i;

/** Why `git push --porcelain` says a ref's update was refused (`! src:dst [rejected] (why)`): the run branch's, else the first. */
function rejection(porcelain: string, branch: string): string | undefined {
  const lines = porcelain.split('\n').filter((l) => l.startsWith('!'));
  const reasons = lines.map((l) => [l, /\((.*)\)\s*$/.exec(l)?.[1]] as const);
  const own = reasons.find(([l]) => l.includes(`:refs/heads/${branch}\t`))?.[1];
  // With --atomic the other refs only say "atomic push failed": the reason is on the one refused.
  if (own && own !== 'atomic push failed') return own;
  return reasons.find(([, why]) => why && why !== 'atomic push failed')?.[1] ?? own;
}

/** What the remote's hooks said (`remote: POLICY: …`), its empty lines and progress dropped. */
function remoteLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((l) => /^remote:\s?(.*)$/.exec(l.trim())?.[1]?.trim())
    .filter((l): l is string => Boolean(l) && !/^(Resolving deltas|Counting objects|Compressing objects|Total \d)/.test(l as string));
}

/** git's own error lines, without its advice. */
function gitErrors(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(error|fatal):/.test(l) && !/failed to push some refs/.test(l))
    .map((l) => l.replace(/^(error|fatal):\s*/, ''));
}
