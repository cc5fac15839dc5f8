import { o200kCounter, type TokenCounter } from '../../tokens/index.js';
import { ContextManager, createSnippetExtractor } from '../../loop/index.js';
import { buildFull, buildRecency, maskOldOutputs, splitHistory } from './baseline-strategies.js';
import { extractKeyFacts, type KeyFacts, scoreFacts } from './key-facts.js';
import type { Trajectory } from './types.js';

/** The strategies the replay compares, in report order. */
export const STRATEGIES = ['baton', 'recency', 'mask_m10', 'mask_m10_recency'] as const;
/** One of STRATEGIES. */
export type StrategyName = (typeof STRATEGIES)[number];
/** @default [4096, 8192, 16384] */
export const DEFAULT_BENCH_BUDGETS = [4096, 8192, 16384];

/** One strategy's scores at one budget. */
export interface StrategyScore {
  over_budget_rate: number;
  trr: number;
  kfr: { goal: number; edited_paths: number; last_error: number; last3: number; macro: number };
  /**
   * The definition: the share of each context that is an identical prefix of the previous
   * one (what a prompt cache can serve of the new request), averaged over builds that did not
   * compact (re-plan or drop older parts). Every appended turn lowers it on short contexts.
   */
  prefix_stability: number;
  /** The same common prefix as a share of the previous context (how much of it was kept), no-compaction builds. */
  prefix_reuse_of_previous: number;
  /** Mean over all builds after the first of each trajectory. */
  prefix_stability_all: number;
  compaction_rate: number;
}

/** The report `baton bench context --json` prints (issue 5's shape plus a few extra fields). */
export interface ContextBenchReport {
  tokenizer: string;
  trajectories: number;
  builds: number;
  budgets: Record<string, Record<StrategyName, StrategyScore>>;
  latency_ms: { cold_p50: number; cold_p95: number; incremental_p50: number; incremental_p95: number };
}

/** Options of runContextBench. */
export interface ContextBenchOptions {
  /** @default DEFAULT_BENCH_BUDGETS */
  budgets?: number[];
  /** @default o200kCounter */
  counter?: TokenCounter;
  /** Clock for latency, in ms. @default performance.now */
  now?: () => number;
  /**
   * Times each build this many times (fresh managers each run) and keeps the fastest. Above 1 it
   * filters a loaded machine's scheduling noise, but also hides real pauses (GC), so the default
   * reports what a caller sees. @default 1
   */
  latencyRuns?: number;
}

type FactKey = 'goal' | 'edited_paths' | 'last_error' | 'last3';
interface Acc {
  builds: number;
  over: number;
  tokens: number;
  full: number;
  facts: Record<FactKey, { sum: number; n: number }>;
  stable: { sum: number; n: number };
  stableCurrent: { sum: number; n: number };
  stableAll: { sum: number; n: number };
  compactions: number;
}

/**
 * Replays trajectories: for every model call, rebuilds the context each strategy would have sent
 * from the events before it, with the same tokenizer, and scores over-budget builds, token
 * reduction, key-fact recall and prefix stability; times Baton's assembly cold (a fresh manager
 * over the whole log) and incremental (the new events, then assembly).
 */
export async function runContextBench(trajectories: readonly Trajectory[], options: ContextBenchOptions = {}): Promise<ContextBenchReport> {
  const budgets = options.budgets ?? DEFAULT_BENCH_BUDGETS;
  const counter = options.counter ?? o200kCounter;
  const now = options.now ?? (() => performance.now());
  const acc = new Map<string, Acc>();
  const get = (budget: number, s: StrategyName) => {
    const key = `${budget}/${s}`;
    let a = acc.get(key);
    if (!a) {
      a = emptyAcc();
      acc.set(key, a);
    }
    return a;
  };
  let builds = 0;
  for (const traj of trajectories) builds += await replayTrajectory(traj, budgets, counter, get);
  const latency = await measureLatency(trajectories, budgets, counter, now, options.latencyRuns ?? 1);
  const report: ContextBenchReport['budgets'] = {};
  for (const budget of budgets) {
    report[String(budget)] = Object.fromEntries(STRATEGIES.map((s) => [s, finish(get(budget, s))])) as Record<StrategyName, StrategyScore>;
  }
  return {
    tokenizer: counter.name,
    trajectories: trajectories.length,
    builds,
    budgets: report,
    latency_ms: {
      cold_p50: quantile(latency.cold, 0.5),
      cold_p95: quantile(latency.cold, 0.95),
      incremental_p50: quantile(latency.incremental, 0.5),
      incremental_p95: quantile(latency.incremental, 0.95),
    },
  };
}

/** Replays one trajectory at every budget and adds each strategy's builds to its accumulator; returns the steps replayed. */
async function replayTrajectory(
  traj: Trajectory,
  budgets: readonly number[],
  counter: TokenCounter,
  get: (budget: number, s: StrategyName) => Acc,
): Promise<number> {
  const cache = new Map<string, number>();
  const extractor = await createSnippetExtractor();
  const managers = budgets.map(() => new ContextManager({ counter }, extractor));
  const previous = new Map<string, string>();
  let previousEnd = 0;
  for (const end of traj.steps) {
    const events = traj.events.slice(0, end);
    const history = splitHistory(events);
    const full = counter.count(buildFull(history));
    const facts = extractKeyFacts(traj, end);
    const masked = maskOldOutputs(history);
    for (const [b, budget] of budgets.entries()) {
      const manager = managers[b] as ContextManager;
      manager.recordAll(traj.events.slice(previousEnd, end));
      const built = manager.assemble({ budget });
      const recency = buildRecency(history, budget, counter, cache);
      const maskedRecency = buildRecency(masked.history, budget, counter, cache);
      const texts: Record<StrategyName, { text: string; compacted: boolean }> = {
        baton: { text: built.text, compacted: built.compacted },
        recency: { text: recency.text, compacted: recency.kept < history.units.length },
        mask_m10: { text: buildFull(masked.history), compacted: masked.masked > 0 },
        mask_m10_recency: { text: maskedRecency.text, compacted: masked.masked > 0 || maskedRecency.kept < history.units.length },
      };
      for (const s of STRATEGIES) {
        const key = `${budget}/${s}`;
        const { text, compacted } = texts[s];
        recordBuild(get(budget, s), { text, compacted, budget, full, facts, previous: previous.get(key) }, counter);
        previous.set(key, text);
      }
    }
    previousEnd = end;
  }
  return traj.steps.length;
}

/** Adds one build to a strategy's scores: size against the budget, key facts kept, prefix kept since its last build. */
function recordBuild(
  a: Acc,
  build: { text: string; compacted: boolean; budget: number; full: number; facts: KeyFacts; previous: string | undefined },
  counter: TokenCounter,
): void {
  const { text, compacted, previous: prev } = build;
  const tokens = counter.count(text);
  a.builds += 1;
  if (tokens > build.budget) a.over += 1;
  a.tokens += tokens;
  a.full += build.full;
  const score = scoreFacts(build.facts, text);
  for (const k of ['goal', 'edited_paths', 'last_error', 'last3'] as const) add(a.facts[k], score[k]);
  if (prev === undefined) return;
  const common = commonPrefix(prev, text);
  const share = prev.length === 0 ? 1 : common / prev.length;
  add(a.stableAll, share);
  if (compacted) a.compactions += 1;
  else {
    add(a.stable, share);
    add(a.stableCurrent, text.length === 0 ? 1 : common / text.length);
  }
}

/** Adds one value to a running mean; an absent value (a fact the step does not have) is not counted. */
export function add(x: { sum: number; n: number }, v: number | undefined): void {
  if (v === undefined) return;
  x.sum += v;
  x.n += 1;
}

/**
 * Cold: a fresh manager (and a fresh parse cache) records the whole log before the step and
 * assembles. Incremental: a running manager records the events since the previous step and
 * assembles; the first step of a run is cold by nature and is not counted as incremental.
 */
async function measureLatency(
  trajectories: readonly Trajectory[],
  budgets: readonly number[],
  counter: TokenCounter,
  now: () => number,
  runs: number,
): Promise<{ cold: number[]; incremental: number[] }> {
  const cold: number[] = [];
  const incremental: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    let c = 0;
    let n = 0;
    for (const traj of trajectories) {
      for (const budget of budgets) {
        const manager = new ContextManager({ counter }, await createSnippetExtractor());
        let fed = 0;
        for (const end of traj.steps) {
          const t0 = now();
          manager.recordAll(traj.events.slice(fed, end));
          manager.assemble({ budget });
          const took = now() - t0;
          if (fed > 0) {
            incremental[n] = Math.min(incremental[n] ?? took, took);
            n += 1;
          }
          fed = end;
          const fresh = new ContextManager({ counter }, await createSnippetExtractor());
          const c0 = now();
          fresh.recordAll(traj.events.slice(0, end));
          fresh.assemble({ budget });
          const coldTook = now() - c0;
          cold[c] = Math.min(cold[c] ?? coldTook, coldTook);
          c += 1;
        }
      }
    }
  }
  return { cold, incremental };
}

function emptyAcc(): Acc {
  const z = () => ({ sum: 0, n: 0 });
  return {
    builds: 0,
    over: 0,
    tokens: 0,
    full: 0,
    facts: { goal: z(), edited_paths: z(), last_error: z(), last3: z() },
    stable: z(),
    stableCurrent: z(),
    stableAll: z(),
    compactions: 0,
  };
}

function finish(a: Acc): StrategyScore {
  const mean = (x: { sum: number; n: number }) => (x.n === 0 ? 1 : x.sum / x.n);
  const goal = mean(a.facts.goal);
  const edited = mean(a.facts.edited_paths);
  const error = mean(a.facts.last_error);
  const last3 = mean(a.facts.last3);
  return {
    over_budget_rate: round(a.builds === 0 ? 0 : a.over / a.builds),
    trr: round(a.full === 0 ? 0 : 1 - a.tokens / a.full),
    kfr: {
      goal: round(goal),
      edited_paths: round(edited),
      last_error: round(error),
      last3: round(last3),
      macro: round((goal + edited + error + last3) / 4),
    },
    prefix_stability: round(mean(a.stableCurrent)),
    prefix_reuse_of_previous: round(mean(a.stable)),
    prefix_stability_all: round(mean(a.stableAll)),
    compaction_rate: round(a.stableAll.n === 0 ? 0 : a.compactions / a.stableAll.n),
  };
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

/** Nearest-rank quantile, rounded to 0.01 ms. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round((sorted[index] as number) * 100) / 100;
}

/** Rounded to 4 decimals, as the reports print shares. */
export function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
