import { ContextManager, createSnippetExtractor, type SnippetExtractor } from '../../loop/index.js';
import { o200kCounter, type TokenCounter } from '../../tokens/index.js';
import { linesKept, scoreSessionFacts } from '../facts/score-session-facts.js';
import { FACT_NAMES, type FactName, type SessionFacts } from '../facts/types.js';
import { appendHistory, buildRecency, type SplitHistory } from '../replay/baseline-strategies.js';
import { add, quantile, round } from '../replay/run-context-bench.js';
import type { Replay } from './replay.js';

/** The strategies the facts benchmark compares: Baton, and recency (the newest messages that fit). */
export const FACT_STRATEGIES = ['baton', 'recency'] as const;
/** One of FACT_STRATEGIES. */
export type FactStrategy = (typeof FACT_STRATEGIES)[number];
/** @default [2048, 4096, 8192] */
export const DEFAULT_FACT_BUDGETS = [2048, 4096, 8192];

/** One strategy's scores at one budget, over one client's replays. */
export interface FactStrategyScore {
  builds: number;
  /** Builds whose re-tokenized text exceeds the budget. */
  over_budget_rate: number;
  /** Mean share found per fact; null when no build had that fact. */
  facts: Record<FactName, number | null>;
  /** Mean of the facts that were scored. */
  macro: number;
  /** Mean share of the system prompt's lines kept, and of the task's. */
  system_lines_kept: number | null;
  task_lines_kept: number | null;
  mean_tokens: number;
  /** Baton only: wall time of recording a call's new events and assembling, per model call (ms). */
  assembly_ms?: { p50: number; p95: number };
}

/** What `baton bench context --sessions` reports: per client, per budget, per strategy. */
export interface FactBenchReport {
  tokenizer: string;
  clients: Record<string, { replays: number; builds: number; budgets: Record<string, Record<FactStrategy, FactStrategyScore>> }>;
}

/** Options of runFactBench. */
export interface FactBenchOptions {
  /** @default DEFAULT_FACT_BUDGETS */
  budgets?: number[];
  /** @default o200kCounter */
  counter?: TokenCounter;
  /** Clock for the assembly time, in ms. @default performance.now */
  now?: () => number;
}

interface Acc {
  builds: number;
  over: number;
  tokens: number;
  facts: Record<FactName, { sum: number; n: number }>;
  system: { sum: number; n: number };
  task: { sum: number; n: number };
  times: number[];
}

/**
 * Replays runs for issue 36's facts: before every model call it builds the context Baton assembles
 * (a ContextManager per budget, fed the new events and asked to assemble, as a user's loop does)
 * and the recency baseline's (system and task pinned, the newest messages that fit), and scores
 * each against the facts of that call, the share of the system prompt's and the task's lines
 * kept, and over-budget builds; times Baton's record-and-assemble per call.
 */
export async function runFactBench(replays: readonly Replay[], options: FactBenchOptions = {}): Promise<FactBenchReport> {
  const budgets = options.budgets ?? DEFAULT_FACT_BUDGETS;
  const counter = options.counter ?? o200kCounter;
  const now = options.now ?? (() => performance.now());
  const extractor = await createSnippetExtractor();
  const acc = new Map<string, Acc>();
  const get = (client: string, budget: number, s: FactStrategy) => {
    const key = `${client}/${budget}/${s}`;
    let a = acc.get(key);
    if (!a) acc.set(key, (a = emptyAcc()));
    return a;
  };
  const report: FactBenchReport = { tokenizer: counter.name, clients: {} };
  for (const replay of replays) {
    const entry = (report.clients[replay.client] ??= { replays: 0, builds: 0, budgets: {} });
    entry.replays += 1;
    entry.builds += replay.steps.length;
    replayOne(replay, { budgets, counter, now, extractor }, (budget, s) => get(replay.client, budget, s));
  }
  for (const [client, entry] of Object.entries(report.clients)) {
    for (const budget of budgets) {
      entry.budgets[String(budget)] = {
        baton: finish(get(client, budget, 'baton'), true),
        recency: finish(get(client, budget, 'recency'), false),
      };
    }
  }
  return report;
}

function replayOne(
  replay: Replay,
  ctx: { budgets: readonly number[]; counter: TokenCounter; now: () => number; extractor: SnippetExtractor },
  get: (budget: number, s: FactStrategy) => Acc,
): void {
  const { budgets, counter, now } = ctx;
  const managers = budgets.map(() => new ContextManager({ counter }, ctx.extractor));
  const history: SplitHistory = { references: [], units: [] };
  const cache = new Map<string, number>();
  let fed = 0;
  replay.steps.forEach((end, k) => {
    const facts = replay.facts[k] as SessionFacts;
    const fresh = replay.events.slice(fed, end);
    appendHistory(history, fresh);
    budgets.forEach((budget, b) => {
      const manager = managers[b] as ContextManager;
      const t0 = now();
      manager.recordAll(fresh);
      const built = manager.assemble({ budget });
      const baton = get(budget, 'baton');
      baton.times.push(now() - t0);
      score(baton, built.text, budget, facts, replay, counter);
      score(get(budget, 'recency'), buildRecency(history, budget, counter, cache).text, budget, facts, replay, counter);
    });
    fed = end;
  });
}

function score(a: Acc, text: string, budget: number, facts: SessionFacts, replay: Replay, counter: TokenCounter): void {
  const tokens = counter.count(text);
  a.builds += 1;
  a.tokens += tokens;
  if (tokens > budget) a.over += 1;
  const scores = scoreSessionFacts(facts, text);
  for (const name of FACT_NAMES) add(a.facts[name], scores[name]);
  add(a.system, replay.system === undefined ? undefined : linesKept(replay.system, text));
  add(a.task, replay.task === undefined ? undefined : linesKept(replay.task, text));
}

function emptyAcc(): Acc {
  const z = () => ({ sum: 0, n: 0 });
  return {
    builds: 0,
    over: 0,
    tokens: 0,
    facts: Object.fromEntries(FACT_NAMES.map((n) => [n, z()])) as Acc['facts'],
    system: z(),
    task: z(),
    times: [],
  };
}

function finish(a: Acc, timed: boolean): FactStrategyScore {
  const mean = (x: { sum: number; n: number }) => (x.n === 0 ? null : round(x.sum / x.n));
  const facts = Object.fromEntries(FACT_NAMES.map((n) => [n, mean(a.facts[n])])) as Record<FactName, number | null>;
  const scored = Object.values(facts).filter((v): v is number => v !== null);
  return {
    builds: a.builds,
    over_budget_rate: round(a.builds === 0 ? 0 : a.over / a.builds),
    facts,
    macro: round(scored.length === 0 ? 0 : scored.reduce((s, v) => s + v, 0) / scored.length),
    system_lines_kept: mean(a.system),
    task_lines_kept: mean(a.task),
    mean_tokens: Math.round(a.builds === 0 ? 0 : a.tokens / a.builds),
    ...(timed ? { assembly_ms: { p50: quantile(a.times, 0.5), p95: quantile(a.times, 0.95) } } : {}),
  };
}
