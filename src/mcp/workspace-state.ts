import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BatonError, errorMessage } from '../errors/index.js';
import { type Ledger, openLedger } from '../ledger/index.js';
import { GitCache, type RenderWorker, ResultCache, trackLedgerWrites } from '../refresh/light.js';
import type { TurnBudget } from './turn-budget.js';
import { backendTried, unavailableLedger } from './unavailable-ledger.js';
import { type WarmUpOptions, type WarmUpReport, warmUp } from './warm-up.js';

/** Opens a workspace's ledger; injected so tests and the HTTP server can share or replace it. */
export type LedgerOpener = (root: string) => Promise<Ledger>;

/**
 * Ledgers by workspace root, opened once and shared by every MCP session of the process, with
 * one git cache and one cache of rendered refresh results. `close()` closes them all.
 */
export class WorkspaceRegistry {
  /** refresh_context results shared by every session (see refresh/result-cache.ts). */
  readonly resultCache = new ResultCache<unknown>();
  /**
   * Where cold renders run, off the event loop every session shares (refresh/render-worker.ts).
   * Set by the HTTP server, which serves many clients at once, and by `baton mcp` over stdio, whose
   * thread loads the renderers while the server answers `initialize`. @default none: in-thread
   */
  renderWorker: RenderWorker | undefined;
  /**
   * Bounds the request work of one event-loop turn (turn-budget.ts). Set by the HTTP server; tools
   * take a turn before their heavy synchronous tail (encoding and writing a large result).
   * @default none: no slicing
   */
  turns: TurnBudget | undefined;
  private readonly ledgers = new Map<string, Promise<Ledger>>();
  private readonly warmUps = new Map<string, Promise<WarmUpReport>>();

  constructor(
    private readonly openLedgerFor: LedgerOpener = (root) => openLedger({ cwd: root }),
    readonly gitCache: GitCache = new GitCache(),
  ) {}

  /** The root's ledger; one that cannot be opened comes back as a stand-in that rejects every call. */
  async ledger(root: string): Promise<{ ledger: Ledger; error?: string }> {
    let ledger = this.ledgers.get(root);
    if (!ledger) {
      // Writes through this handle are counted: the result cache's ledger version (ledger-version.ts).
      ledger = this.openLedgerFor(root).then(trackLedgerWrites);
      this.ledgers.set(root, ledger);
    }
    try {
      return { ledger: await ledger };
    } catch (error) {
      // A failed open is not cached: the next call tries again.
      this.ledgers.delete(root);
      return { ledger: unavailableLedger(root, backendTried(), error), error: errorMessage(error) };
    }
  }

  /**
   * Starts the background warm-up (warm-up.ts) for a workspace, or for the process alone when
   * none is known yet; once per root. See warmUp for `gate` and `git`. Safe to ignore: it never
   * rejects.
   */
  warm(root?: string, options: WarmUpOptions = {}): Promise<WarmUpReport> {
    const slot = root ?? '';
    let running = this.warmUps.get(slot);
    if (!running) {
      running = warmUp(this, root, options);
      this.warmUps.set(slot, running);
    }
    return running;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.warmUps.values());
    await this.renderWorker?.close();
    const all = [...this.ledgers.values()];
    this.ledgers.clear();
    await Promise.allSettled(all.map(async (ledger) => (await ledger).close()));
  }
}

/** The active workspace of one MCP session (seed 002 §4.3: tools fail until a handshake). */
export class WorkspaceState {
  constructor(
    readonly registry: WorkspaceRegistry,
    public root?: string,
  ) {}

  /** Validates and activates a project root. Throws INPUT_INVALID when it is not a directory. */
  async setRoot(projectRoot: string): Promise<{ root: string; ledger: Ledger; ledgerError?: string }> {
    const root = path.resolve(projectRoot);
    const info = await stat(root).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new BatonError('INPUT_INVALID', `project_root "${projectRoot}" is not a directory`, {
        details: { field: 'project_root', value: projectRoot },
      });
    }
    const { ledger, error } = await this.registry.ledger(root);
    this.root = root;
    // The first refresh_context usually follows the handshake: its modules and ledger load now
    // (not git: the agent may still edit before it asks).
    if (!error) void this.registry.warm(root, { git: false });
    return { root, ledger, ledgerError: error };
  }

  /** The active root and its ledger; throws WORKSPACE_NOT_SET before a handshake. */
  async require(): Promise<{ root: string; ledger: Ledger }> {
    if (!this.root) {
      throw new BatonError('WORKSPACE_NOT_SET', 'No active workspace. Call workspace_handshake first.');
    }
    return { root: this.root, ledger: (await this.registry.ledger(this.root)).ledger };
  }
}
