import { Worker } from 'node:worker_threads';
import { logLater } from '../observability/index.js';
import type { ContextSnapshot, RenderJob, RenderOutcome, SnapshotRenderer } from './types.js';

interface Pending {
  raw: ContextSnapshot;
  job: RenderJob;
  resolve: (outcome: RenderOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Masks and renders refresh results on a worker thread, so a cold detailed render (secretlint
 * over a 200 KB diff, the tokenizer over every section) does not hold the server's event loop
 * while other clients wait. One thread, started on first use or by warm(); jobs queue on it. From source
 * (`.ts`, tests under tsx/vitest) there is no compiled worker file, and from a worker that died
 * the jobs run in-thread instead: slower for the others, never wrong.
 */
export class RenderWorker implements SnapshotRenderer {
  private worker: Worker | undefined;
  private broken = !import.meta.url.endsWith('.js');
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  /** True when jobs go to a worker thread (false from source or after the worker failed). */
  get offThread(): boolean {
    return !this.broken;
  }

  render(raw: ContextSnapshot, job: RenderJob): Promise<RenderOutcome> {
    const worker = this.start();
    if (!worker) return inThread(raw, job);
    this.nextId += 1;
    const id = this.nextId;
    return new Promise<RenderOutcome>((resolve, reject) => {
      this.pending.set(id, { raw, job, resolve, reject });
      worker.postMessage({ id, raw, job });
    });
  }

  /**
   * Starts the thread now, so its tokenizer vocabulary and secret-scanner rules load while this
   * thread does other work (the MCP server's own start-up): the first render then finds them ready.
   */
  warm(): void {
    this.start();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker | undefined {
    if (this.broken) return undefined;
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./render-worker-main.js', import.meta.url));
    worker.unref();
    worker.on('message', (message: { id: number; outcome?: RenderOutcome; error?: string }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.outcome) waiting.resolve(message.outcome);
      else waiting.reject(new Error(message.error ?? 'render worker failed'));
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (this.worker === worker && code !== 0) this.fail(new Error(`render worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    logLater('warn', { err: error.message }, 'refresh: render worker failed; rendering in-thread from now on');
    this.broken = true;
    this.worker = undefined;
    // Jobs the worker took with it are rendered here instead.
    for (const waiting of this.pending.values()) inThread(waiting.raw, waiting.job).then(waiting.resolve, waiting.reject);
    this.pending.clear();
  }
}

/** Loaded on demand: the renderers bring the tokenizer, which the worker's owner may never need. */
async function inThread(raw: ContextSnapshot, job: RenderJob): Promise<RenderOutcome> {
  const { redactAndRender } = await import('./redact-and-render.js');
  return redactAndRender(raw, job);
}
