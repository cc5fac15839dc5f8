import { BatonError, errorMessage } from '../errors/index.js';
import { checkRefreshOptions } from './refresh-options-schema.js';
import { type LedgerRecord, newId, type SessionData } from '../ledger/index.js';
import { counter, histogram, logLater } from '../observability/index.js';
import { maskSecretsSync } from '../redact/index.js';
import { type GatherOptions, gatherSnapshot } from './gather-snapshot.js';
import { resolveFormat } from './format-budgets.js';
import { GitCache } from './git-cache.js';
import { type ContextDelta, compareSnapshots, deltaSinceTime } from './snapshot-delta.js';
import { findSnapshotBefore, loadSnapshot, saveSnapshot } from './snapshot-store.js';
import { ledgerVersion } from './ledger-version.js';
import type { ResultCache, ResultCacheStatus } from './result-cache.js';
import { stalenessWarnings, touchSession } from './session-state.js';
import type { ContextSnapshot, RefreshFormat, RefreshOptions, RefreshResult, RenderedContext, RenderJob, RenderOutcome } from './types.js';

type SessionRecord = LedgerRecord<SessionData> | undefined;

/** @default 5 (seed 002 §4.2) */
export const DEFAULT_DISPATCH_LIMIT = 5;
/** @default 5 (seed 002 §4.2) */
export const DEFAULT_COMMIT_LIMIT = 5;
/** @default 'default' */
export const DEFAULT_SESSION_ID = 'default';
const MAX_LIMIT = 100;

/**
 * Session recovery (seed 002): gathers the ledger, git, task folder, workflow and environment in
 * parallel, masks secrets in everything, renders the requested format inside its hard token cap
 * with a continuation prompt, and records the call (session freshness state and an audit record
 * without the content). Never fails because a source is missing: a partial context with
 * `metadata.warnings` comes back instead, and `detailed` falls back to `standard`.
 *
 * @throws BatonError('INPUT_INVALID') for a bad format, limit or `since`; 'NOT_FOUND' for an
 *   unknown explicit task id or snapshot; 'CONFIG_INVALID' for an unknown option (naming the
 *   spelling expected) or a value of the wrong type.
 * @example
 * const { text, continuation_prompt } = await refreshContext({ workspace, ledger, format: 'standard' });
 */
export async function refreshContext(options: RefreshOptions): Promise<RefreshResult> {
  const startedAt = performance.now();
  requireSources(options);
  checkRefreshOptions(options);
  const format = resolveFormat(options.format);
  const now = (options.now ?? Date.now)();
  const sessionId = options.sessionId ?? DEFAULT_SESSION_ID;
  const sinceMs = options.since !== undefined ? parseSince(options.since) : undefined;
  const snapshotId = options.saveSnapshot ? newId('snap-') : undefined;

  const session = await options.ledger.getRecord<SessionData>('sessions', sessionId).catch(() => undefined);
  const { snapshot, rendered } = await resolveRefresh(options, { format, now, session, sinceMs, snapshotId });

  recordMetrics(rendered, performance.now() - startedAt);
  await options.yieldTurn?.();
  await recordCall(options, { snapshot, rendered, sessionId, session, snapshotId, now });
  return {
    context: rendered.context,
    text: rendered.text,
    continuation_prompt: rendered.continuationPrompt,
    metadata: rendered.metadata,
    snapshot,
  };
}

/**
 * Everything refreshContext does for a new session except recording the call: fills the git
 * cache, loads the tokenizer and the secret-scanner rules, prepares the ledger's statements and,
 * given a result cache, stores the result a new session's first call will be answered with. The
 * MCP server runs it in the background at start-up. Writes nothing.
 */
export async function warmRefresh(options: RefreshOptions): Promise<void> {
  await resolveRefresh(options, { format: resolveFormat(options.format), now: (options.now ?? Date.now)() });
}

interface RefreshCall {
  format: RefreshFormat;
  now: number;
  session?: SessionRecord;
  sinceMs?: number;
  snapshotId?: string;
}

/** The rendered result for a call: from the result cache when it applies, else computed. */
async function resolveRefresh(options: RefreshOptions, call: RefreshCall): Promise<RenderOutcome> {
  // No cache of the caller's: git is read for this call (a change made a second ago shows).
  const plan = planGather(options, call.format, options.gitCache ?? new GitCache(), call.now);
  const cache = cacheFor(options);
  const key = cache ? await resultKey(options, plan, call.session, call.now) : undefined;
  if (!cache || key === undefined) return computeRefresh(options, plan, call);
  // Rendered with the status it is sent with on a miss: the count includes it. 'hit' and 'shared'
  // then take its place: one o200k token each, like 'miss', so token_estimate stays exact.
  const { value, status } = await cache.getOrCompute(key, () => computeRefresh(options, plan, call, 'miss'));
  const { metadata } = value.rendered;
  return { ...value, rendered: { ...value.rendered, metadata: { ...metadata, cache: { ...metadata.cache, result: status } } } };
}

/** What to gather for these options (the result cache keys on it too). */
function planGather(options: RefreshOptions, format: RefreshFormat, gitCache: GitCache, now: number): GatherOptions {
  const detailed = format === 'detailed';
  const includeTaskArtifacts = options.includeTaskArtifacts ?? detailed;
  return {
    workspace: options.workspace,
    ledger: options.ledger,
    gitCache,
    fresh: options.fresh === true,
    taskId: options.taskId,
    includeGit: options.includeGit ?? true,
    includeGitDiff: detailed,
    includeTechDebt: options.includeTechDebt ?? true,
    includeDispatches: options.includeDispatches ?? true,
    includeTaskArtifacts,
    includeArtifactContents: detailed,
    includeResearch: options.includeResearch ?? detailed,
    dispatchLimit: limit(options.dispatchLimit ?? (detailed ? 20 : DEFAULT_DISPATCH_LIMIT), 'dispatch_limit'),
    commitLimit: limit(options.commitLimit ?? DEFAULT_COMMIT_LIMIT, 'commit_limit'),
    env: options.env ?? process.env,
    now,
  };
}

/** Gathers, masks and renders: everything of a refresh except the bookkeeping writes. */
async function computeRefresh(
  options: RefreshOptions,
  plan: GatherOptions,
  call: RefreshCall,
  resultStatus?: ResultCacheStatus,
): Promise<RenderOutcome> {
  const { snapshot: raw, gitCache: cacheState } = await gatherSnapshot(plan);
  raw.warnings.push(...(raw.git?.warnings ?? []), ...stalenessWarnings(call.session, { head: raw.git?.head, now: call.now }));

  const job: RenderJob = {
    format: call.format,
    now: call.now,
    generateContinuationPrompt: options.generateContinuationPrompt,
    maxTokens: options.maxTokens,
    sent: options.sent,
    metadata: {
      generated_at: new Date(call.now).toISOString(),
      cache: {
        git: cacheState,
        hits: plan.gitCache.hits,
        misses: plan.gitCache.misses,
        ...(resultStatus ? { result: resultStatus } : {}),
      },
      snapshot_id: call.snapshotId,
    },
  };
  // A delta reads earlier snapshots through the ledger, which stays on this thread. The renderers
  // bring the o200k tokenizer (most of a cold start): loaded only when this thread renders.
  if (options.renderWorker && options.since === undefined) return options.renderWorker.render(raw, job);
  const { redactAndRender } = await import('./redact-and-render.js');
  return redactAndRender(raw, job, (masked) => computeDelta(options, masked, call.sinceMs));
}

/**
 * The result cache to use, or none: a call asking for a delta, a saved snapshot, its own clock or
 * its own environment depends on more than the cache key holds; a `fresh` call wants none.
 */
function cacheFor(options: RefreshOptions): ResultCache<RenderOutcome> | undefined {
  if (!options.resultCache) return undefined;
  if (options.since !== undefined || options.saveSnapshot || options.now || options.env || options.fresh) return undefined;
  return options.resultCache as ResultCache<RenderOutcome>;
}

/**
 * Every input of a render, or undefined when one cannot be known cheaply (a ledger without a
 * version). Git enters as the cached git state itself (HEAD, index and the git cache's entry), the
 * session as the staleness warnings it produces, so sessions in the same state share a result.
 */
async function resultKey(options: RefreshOptions, plan: GatherOptions, session: SessionRecord, now: number): Promise<string | undefined> {
  const ledger = ledgerVersion(options.ledger);
  if (ledger === undefined) return undefined;
  // The same lookup gatherSnapshot makes next: a hit here is a hit there, a miss reads git once.
  const lookup = plan.includeGit
    ? await plan.gitCache.get(plan.workspace, { commitLimit: plan.commitLimit, includeDiff: plan.includeGitDiff }).catch(() => undefined)
    : undefined;
  const git = !plan.includeGit ? 'off' : lookup ? `${lookup.key}#${stateId(lookup.state)}` : 'none';
  const stale = stalenessWarnings(session, { head: lookup?.state.head, now });
  return JSON.stringify([
    plan.workspace,
    options.format ?? 'standard',
    plan.taskId ?? null,
    plan.includeTechDebt,
    plan.includeDispatches,
    plan.includeTaskArtifacts,
    plan.includeResearch,
    plan.dispatchLimit,
    plan.commitLimit,
    options.generateContinuationPrompt ?? true,
    options.maxTokens ?? null,
    options.sent ?? null,
    git,
    ledger,
    stale,
  ]);
}

const stateIds = new WeakMap<object, number>();
let nextStateId = 0;
/** A number per git state object: a re-read of git gives a new one even when HEAD and index are unchanged. */
function stateId(state: object): number {
  let id = stateIds.get(state);
  if (id === undefined) {
    nextStateId += 1;
    id = nextStateId;
    stateIds.set(state, id);
  }
  return id;
}

async function computeDelta(
  options: RefreshOptions,
  snapshot: ContextSnapshot,
  sinceMs: number | undefined,
): Promise<ContextDelta | undefined> {
  const since = options.since;
  if (since === undefined) return undefined;
  if (sinceMs === undefined) {
    const base = await loadSnapshot(options.workspace, options.ledger, since);
    return compareSnapshots(base, snapshot, since, since);
  }
  // A failed lookup still answers (time-based), but says so: a time-based delta cannot list removals.
  const fallback = (what: string, error: unknown) =>
    snapshot.warnings.push(
      maskSecretsSync(`${what} failed (${errorMessage(error)}): the delta since ${since} is time-based, so removals cannot be reported.`)
        .text,
    );
  const base = await findSnapshotBefore(options.workspace, options.ledger, sinceMs, snapshot.task?.id).catch((error: unknown) => {
    fallback('Snapshot lookup', error);
    return undefined;
  });
  if (base) {
    const before = await loadSnapshot(options.workspace, options.ledger, base.id).catch((error: unknown) => {
      fallback(`Reading snapshot ${base.id}`, error);
      return undefined;
    });
    if (before) return compareSnapshots(before, snapshot, since, base.id);
  }
  return deltaSinceTime(snapshot, sinceMs, since);
}

async function recordCall(
  options: RefreshOptions,
  call: RenderOutcome & Pick<RefreshCall, 'session' | 'snapshotId' | 'now'> & { sessionId: string },
): Promise<void> {
  const { snapshot, rendered } = call;
  // Every write starts inside an async function: one that throws at once (a ledger without
  // createRecord) is a rejection settled below, never a promise left floating beside a throw.
  const writes: Array<Promise<unknown>> = [
    settle(() =>
      touchSession(options.ledger, call.sessionId, call.session, {
        workspace: options.workspace,
        head: snapshot.git?.head,
        now: call.now,
        taskId: snapshot.task?.id,
      }),
    ),
  ];
  if (options.audit !== false) {
    // §6.4: when, where, what was included and how big; never the content itself.
    writes.push(
      settle(() =>
        options.ledger.createRecord('audit', {
          status: 'refresh_context',
          taskId: snapshot.task?.id,
          data: {
            at: call.now,
            workspace: options.workspace,
            session: call.sessionId,
            task: snapshot.task?.id ?? null,
            format: rendered.metadata.format,
            requestedFormat: rendered.metadata.requested_format ?? rendered.metadata.format,
            sources: snapshot.sources,
            warnings: rendered.metadata.warnings,
            redactions: rendered.metadata.redactions,
            tokens: rendered.metadata.token_estimate,
            snapshotId: call.snapshotId ?? null,
          },
        }),
      ),
    );
  }
  // A snapshot was asked for: failing to save it is an error; the bookkeeping writes only warn.
  const saving = call.snapshotId
    ? settle(() =>
        saveSnapshot(options.workspace, options.ledger, snapshot, {
          format: rendered.metadata.format,
          tokens: rendered.metadata.token_estimate,
          id: call.snapshotId,
        }),
      )
    : Promise.resolve(undefined);
  const [saved, ...results] = await Promise.allSettled([saving, ...writes]);
  for (const result of results) {
    if (result.status === 'rejected') {
      logLater('warn', { err: errorMessage(result.reason) }, 'refresh_context: could not record the call in the ledger');
    }
  }
  if (saved?.status === 'rejected') throw saved.reason;
}

/** `fn()` as a promise, a synchronous throw included. */
async function settle<T>(fn: () => Promise<T>): Promise<T> {
  return fn();
}

/**
 * The two inputs every refresh needs, checked before anything starts: without them a call would
 * fail half-way with a TypeError from deep inside (and leave bookkeeping writes behind).
 */
function requireSources(options: RefreshOptions | undefined): void {
  if (typeof options !== 'object' || options === null) {
    throw new BatonError('INPUT_INVALID', `refreshContext needs an options object ({ workspace, ledger }); got ${String(options)}`, {
      details: { field: 'options' },
    });
  }
  if (typeof options.workspace !== 'string' || options.workspace.trim() === '') {
    throw new BatonError(
      'INPUT_INVALID',
      `refreshContext: workspace must be the workspace folder's path (a string); got ${describe(options.workspace)}`,
      {
        details: { field: 'workspace' },
      },
    );
  }
  const ledger = options.ledger as Partial<RefreshOptions['ledger']> | undefined;
  if (typeof ledger !== 'object' || ledger === null || typeof ledger.getTask !== 'function' || typeof ledger.createRecord !== 'function') {
    throw new BatonError(
      'INPUT_INVALID',
      `refreshContext: ledger must be a Ledger (await openLedger({ cwd: workspace }), or new MemoryLedger()); got ${describe(options.ledger)}`,
      { details: { field: 'ledger' } },
    );
  }
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'object'
    ? `an object with keys ${Object.keys(value).join(', ') || '(none)'}`
    : `${typeof value} ${String(value)}`;
}

/**
 * Recorded on the next turn of the event loop: the first refresh_context of a fresh `baton mcp` is
 * the answer a client waits for, and loading prom-client (~40 ms, at the first metric) would come
 * before it.
 */
function recordMetrics(rendered: RenderedContext, durationMs: number): void {
  setImmediate(() => {
    const { format, redactions, cache, token_estimate: tokens } = rendered.metadata;
    counter('baton_refresh_total', 'refresh_context calls', ['format', 'git_cache']).inc({ format, git_cache: cache.git });
    counter('baton_redactions_total', 'secrets masked in emitted context', ['source']).inc({ source: 'refresh' }, redactions);
    histogram('baton_refresh_tokens', 'tokens of each rendered context', ['format'], [250, 500, 1000, 2000, 4000, 6000, 10000]).observe(
      { format },
      tokens,
    );
    histogram(
      'baton_refresh_duration_ms',
      'refresh_context wall time (gather to render)',
      ['format'],
      [5, 10, 25, 50, 100, 150, 250, 400, 1000, 2000],
    ).observe({ format }, durationMs);
  });
}

function limit(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_LIMIT) {
    throw new BatonError('INPUT_INVALID', `${field} must be an integer from 0 to ${MAX_LIMIT}; got ${value}`, {
      details: { field, value },
    });
  }
  return value;
}

/** Epoch ms for a timestamp `since`; undefined when it names a snapshot instead. */
export function parseSince(since: string): number | undefined {
  const value = since.trim();
  if (/^\d{10,}$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isNaN(ms))
      throw new BatonError('INPUT_INVALID', `since "${since}" is not a valid date`, { details: { field: 'since', value: since } });
    return ms;
  }
  if (value.startsWith('snap-')) return undefined;
  throw new BatonError('INPUT_INVALID', `since must be an ISO time, epoch milliseconds or a snapshot id (snap-…); got "${since}"`, {
    details: { field: 'since', value: since },
  });
}
