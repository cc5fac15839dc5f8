import { errorMessage } from '../errors/index.js';
import { logLater } from '../observability/index.js';
import type { Ledger } from '../ledger/index.js';
import { type GitCache, loadRefresh, type RefreshFormat, type ResultCache, type SnapshotRenderer } from '../refresh/light.js';

/**
 * What the warm-up reads of the workspace registry (workspace-state.ts, which calls it). An
 * interface, not a Pick of WorkspaceRegistry, so neither file imports the other.
 */
export interface WarmUpSources {
  gitCache: GitCache;
  resultCache: ResultCache<unknown>;
  renderWorker?: SnapshotRenderer | undefined;
  ledger(root: string): Promise<{ ledger: Ledger; error?: string | undefined }>;
}

export interface WarmUpOptions {
  /** Holds back the steps that evaluate modules until it resolves (stdio: the initialize answer). */
  gate?: Promise<void>;
  /** @default true; false leaves out the git read and the renders (which read git). */
  git?: boolean;
  /**
   * The token budget the client's refresh_context calls will ask for, per format (its
   * `maxTokens`, client-forwarding.ts), read once the gate opens: the renders are cached under it,
   * so they are the ones the client's first call finds. @default the formats' own caps
   */
  budget?: (format: RefreshFormat) => number | undefined;
}

/** How long each warm-up step took (ms from the start of the warm-up), or why it failed. */
export interface WarmUpReport {
  steps: Record<string, { ms: number; error?: string }>;
}

/**
 * Work the first refresh_context needs that does not depend on the request, started in the
 * background so a client that connects and thinks for a moment gets a warm answer, and a call
 * made at once waits only for the slowest step (it joins the same loads and the same git read):
 * - `git`: the first `git status` / `git log` into the shared git cache (a child process, off the loop);
 * - `ledger`: opening the workspace's ledger (schema check, prepared statements);
 * - `refresh_module`: the gathering half of a refresh (the renderers and the o200k tokenizer
 *   vocabulary come with the render, on the render worker when there is one);
 * - `secret_scanner`: secretlint and its rule preset on this thread (after the renders when a
 *   render worker masks them);
 * - `render_*`: a standard render for a new session, left in the shared result cache (with a
 *   render worker, every format, rendered there).
 * Nothing is written. A failing step is reported (and logged at debug level), never thrown.
 */
export async function warmUp(registry: WarmUpSources, root: string | undefined, options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const { gate } = options;
  // Reading git ahead fixes the working tree as it is now for the git cache's lifetime: right for
  // a server started on a workspace, wrong after a handshake (the agent may edit, then refresh).
  const readGit = root !== undefined && options.git !== false;
  const started = performance.now();
  const report: WarmUpReport = { steps: {} };
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      report.steps[name] = { ms: 0, error: errorMessage(error) };
      return undefined;
    } finally {
      report.steps[name] ??= { ms: Math.round(performance.now() - started) };
    }
  };
  // The child processes and the file opens first: they run while the modules below evaluate.
  // git's status of a large tree takes both cores for a while: at normal priority it held up a
  // fresh `baton mcp`'s initialize answer on 50,000 files (225 against 176 ms without it); read
  // after the answer instead, it held up the first refresh_context as much. At a low priority it
  // runs mostly on the time the server's threads leave idle (read-git-state.ts).
  const git = readGit ? step('git', () => registry.gitCache.get(root, { background: true })) : undefined;
  const ledger = root ? step('ledger', () => registry.ledger(root)) : undefined;
  // Module evaluation holds the event loop: it waits for the gate (stdio: the initialize answer).
  await gate;
  const refresh = await step('refresh_module', loadRefresh);
  // Renders mask secrets where they run: on this thread secretlint must be ready first; with a
  // render worker it serves other tools only, and loading it (event-loop time) waits until last.
  const scanner = () => step('secret_scanner', async () => (await import('../redact/index.js')).redactValue({ warm: 'up' }));
  if (!registry.renderWorker) await scanner();
  const opened = await ledger;
  await git;
  if (readGit && refresh && opened && !opened.error) {
    // Standard (what a new session asks for); with a render worker, the other formats too, off
    // the loop (in-thread, a detailed render would hold up the client's first call).
    const formats = registry.renderWorker ? (['standard', 'minimal', 'narrative', 'detailed'] as const) : (['standard'] as const);
    for (const format of formats) {
      await step(`render_${format}`, () =>
        refresh.warmRefresh({
          workspace: root,
          ledger: opened.ledger,
          format,
          maxTokens: options.budget?.(format),
          gitCache: registry.gitCache,
          resultCache: registry.resultCache,
          renderWorker: registry.renderWorker,
        }),
      );
    }
  }
  if (registry.renderWorker) await scanner();
  logLater('debug', { workspace: root ?? null, steps: report.steps }, 'baton mcp: warm-up done');
  return report;
}
