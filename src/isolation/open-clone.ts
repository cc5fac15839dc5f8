import path from 'node:path';
import { BatonError } from '../errors/index.js';
import type { Logger } from '../observability/index.js';
import { git, gitOk } from '../workspace/index.js';
import type { Serializer } from './integration-target.js';
import { createSlotPool, pruneStaleWorktrees, type SlotPool } from './slot-pool.js';

/** A repository (the user's, or a worker's clone) that task worktrees are made in. */
export interface Clone {
  /** The top of its working tree. */
  repo: string;
  /** A commit identity for Baton's own commits when the repository has none configured. */
  identity: Readonly<Record<string, string>>;
  pool: SlotPool;
  /** One at a time per clone: worktree changes, fetches and pushes (they write shared refs). */
  serialize: Serializer;
}

/**
 * Opens `repoDir`'s repository for task worktrees, after removing what an interrupted run left.
 * @throws BatonError INPUT_INVALID naming the folder when it is not in a git repository (`why`
 * says what needs one, and how to get one)
 */
export async function openClone(repoDir: string, options: { keep: boolean; logger: Logger; why: string }): Promise<Clone> {
  const top = await git(['rev-parse', '--show-toplevel'], repoDir).catch(() => undefined);
  if (top?.code !== 0) {
    throw new BatonError('INPUT_INVALID', `${repoDir} is not in a git repository: ${options.why}`, {
      details: { field: 'repository', value: repoDir },
    });
  }
  const repo = (top?.stdout ?? '').trim();
  const root = path.join(path.resolve(repo, await gitOk(['rev-parse', '--git-common-dir'], repo)), 'baton-worktrees');
  await pruneStaleWorktrees(repo, root, options.logger);
  const serialize = createSerializer();
  return { repo, identity: await commitIdentity(repo), pool: createSlotPool({ repo, root, serialize, keep: options.keep }), serialize };
}

function createSerializer(): Serializer {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work);
    last = next.catch(() => undefined);
    return next;
  };
}

async function commitIdentity(repo: string): Promise<Record<string, string>> {
  const email = await git(['config', 'user.email'], repo);
  if (email.code === 0 && email.stdout.trim()) return {};
  return {
    GIT_AUTHOR_NAME: 'Baton',
    GIT_AUTHOR_EMAIL: 'baton@localhost',
    GIT_COMMITTER_NAME: 'Baton',
    GIT_COMMITTER_EMAIL: 'baton@localhost',
  };
}
