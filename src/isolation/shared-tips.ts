import path from 'node:path';
import type { Logger } from '../observability/index.js';
import { git, gitBytes, gitOk, SIDE_WORK_NICENESS } from './git.js';
import type { IntegrationTurns, SharedTip } from './integration-turns.js';
import { objectsOfPack, writeLooseObjects } from './loose-objects.js';

/**
 * @default 1 MiB: a pushed tip's objects up to this size are handed to the other workers through
 * Redis; a larger push is announced without them, and they fetch it.
 */
export const MAX_SHARED_PACK_BYTES = 1024 * 1024;

export interface TipSharingOptions {
  /** The worker's clone, and its common git folder (where objects and refs live). */
  repo: string;
  commonDir: string;
  turns: IntegrationTurns | undefined;
  logger: Logger;
  /** The remote-tracking ref of a run branch, and its commit as this clone has it. */
  trackingRef(branch: string): string;
  trackedTip(branch: string): Promise<string>;
  /** Runs `work` after the clone's fetches in flight (a tip is taken in as a fetch would be). */
  serialize<T>(work: () => Promise<T>): Promise<T>;
  /** A tip came in (as a fetch would have brought it). */
  onTakenIn(branch: string): void;
}

export interface TipSharing {
  /** Takes in, from now on, the tips the other workers share on `branch`. */
  listen(branch: string): void;
  /** Whether the clone has the latest tip shared on `branch`, so that it need not fetch. */
  upToDate(branch: string): Promise<boolean>;
  /** Starts packing what `tip` adds to `base` (beside its push); undefined when tips are not shared. */
  pack(tip: string, base: string): Promise<Buffer> | undefined;
  /** `tip` was pushed onto `base`: hands it on, with its objects, to the other workers. */
  share(branch: string, base: string, tip: string, packing: Promise<Buffer>): Promise<void>;
}

/**
 * The tips the workers push, handed from one clone to the others through the turns (SharedTip) as
 * they are pushed, so that a clone has each one before its tasks need it, with no fetch (six
 * processes, three of them on the remote) on a task's path. A tip is taken in only onto the one
 * it was built on, so the clone never holds a tip without all of its objects; one that does not
 * follow on (a message missed, a push that was not shared) is left to the next fetch, and the
 * push, a compare-and-swap, never relies on it.
 */
export async function createTipSharing(options: TipSharingOptions): Promise<TipSharing> {
  const { turns, logger } = options;
  // Packs are read here (loose-objects.ts) in the object format of most repositories.
  const sha1 = (await git(['rev-parse', '--show-object-format'], options.repo)).stdout.trim() === 'sha1';
  const sharing = sha1 && turns?.share !== undefined && turns.onShared !== undefined;
  const latest = new Map<string, string>();
  const listening = new Set<string>();

  const takeIn = async (branch: string, shared: SharedTip): Promise<void> => {
    if ((await options.trackedTip(branch)) !== shared.base) return;
    const objects = objectsOfPack(shared.pack);
    if (!objects) throw new Error('the shared pack could not be read');
    const written = await writeLooseObjects(path.join(options.commonDir, 'objects'), objects);
    if (!written.has(shared.tip)) throw new Error('the shared pack does not hold its tip');
    const message = `baton: ${shared.by} pushed`;
    await gitOk(['update-ref', '-m', message, options.trackingRef(branch), shared.tip, shared.base], options.repo, {}, SIDE_WORK_NICENESS);
    options.onTakenIn(branch);
  };

  return {
    listen(branch) {
      if (!sharing || !turns?.onShared || listening.has(branch)) return;
      listening.add(branch);
      turns.onShared(branch, (shared) => {
        latest.set(branch, shared.tip);
        // This worker's own pushes updated its tracking ref as they landed.
        if (shared.by === turns.by || shared.pack.length === 0) return;
        options
          .serialize(() => takeIn(branch, shared))
          .catch((error: unknown) =>
            logger.debug({ err: error, tip: shared.tip }, 'a shared tip could not be taken in; the next fetch brings it'),
          );
      });
    },
    async upToDate(branch) {
      const tip = listening.has(branch) ? latest.get(branch) : undefined;
      return tip !== undefined && (await options.trackedTip(branch)) === tip;
    },
    pack(tip, base) {
      if (!sharing) return undefined;
      const args = ['pack-objects', '--stdout', '--revs', '--window=0', '--no-reuse-delta', '-q'];
      return gitBytes(args, options.repo, Buffer.from(`${tip}\n^${base}\n`)).then(
        (packed) => (packed.code === 0 && packed.stdout.length <= MAX_SHARED_PACK_BYTES ? packed.stdout : Buffer.alloc(0)),
        () => Buffer.alloc(0),
      );
    },
    async share(branch, base, tip, packing) {
      latest.set(branch, tip);
      try {
        await turns?.share?.(branch, { base, tip, pack: await packing });
      } catch (error) {
        logger.debug({ err: error, tip }, 'could not share the pushed tip; the other workers fetch it');
      }
    },
  };
}
