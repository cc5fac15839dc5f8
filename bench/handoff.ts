/**
 * Issue 37's handoff benchmark: `npm run bench -- handoff [--budget N] [--out NAME]`. Every real
 * session of ../shared/fixtures/agent-sessions/ at its end and cut at 2/3 of its events (as a
 * usage limit does): Baton's `handoff` text, a markdown handoff built the way continues builds its
 * standard one, and recency at Baton's size, each scored on the six facts (extractSessionFacts).
 * Also the readers' import speed (MB/s) and the handoff's read-and-build time (p95, and on a 5 MB
 * session). Writes bench/results/<NAME>.json (default handoff.json).
 */
import { mkdir, readdir, stat, writeFile, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  appendHistory,
  buildRecency,
  continuesHandoff,
  extractSessionFacts,
  FACT_NAMES,
  type FactName,
  scoreSessionFacts,
  SHARED_SESSIONS_DIR,
  type SplitHistory,
} from '../src/bench/index.js';
import { type AgentSession, buildHandoff, readSessionFile, sessionLoopEvents } from '../src/sessions/index.js';
import { o200kCounter } from '../src/tokens/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const STRATEGIES = ['baton', 'continues', 'recency'] as const;
type Strategy = (typeof STRATEGIES)[number];

export default async function run(args: string[]): Promise<void> {
  let budget = 2500;
  let name = 'handoff';
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--budget') budget = Number(args[++i]);
    else if (args[i] === '--out') name = args[++i] ?? name;
  }
  const files = await sessionFiles(path.resolve(here, '..', SHARED_SESSIONS_DIR));
  const scores: Record<Strategy, Array<Partial<Record<FactName, number>>>> = { baton: [], continues: [], recency: [] };
  const tokens: Record<Strategy, number[]> = { baton: [], continues: [], recency: [] };
  const times: number[] = [];
  let bytes = 0;
  let readMs = 0;
  for (const file of files) {
    const t0 = performance.now();
    const { session } = await readSessionFile(file);
    const tRead = performance.now() - t0;
    readMs += tRead;
    bytes += (await stat(file)).size;
    if (!session.events.some((e) => e.type === 'tool')) continue;
    const cut = Math.max(1, Math.floor((session.events.length * 2) / 3));
    for (const events of [session.events, session.events.slice(0, cut)]) {
      const s: AgentSession = { ...session, events };
      const facts = extractSessionFacts(events);
      const t1 = performance.now();
      const baton = await buildHandoff({ session: s, target: 'claude', budget });
      times.push(tRead + performance.now() - t1);
      const texts: Record<Strategy, string> = { baton: baton.text, continues: continuesHandoff(s), recency: recency(s, baton.tokens) };
      for (const k of STRATEGIES) {
        scores[k].push(scoreSessionFacts(facts, texts[k]));
        tokens[k].push(o200kCounter.count(texts[k]));
      }
    }
  }
  const big = await bigSessionTime(files, budget);
  const report = {
    machine: { load_average: os.loadavg().map((x) => Math.round(x * 100) / 100), cpus: os.cpus().length },
    sessions: files.length,
    builds: scores.baton.length,
    budget,
    import_mb_per_s: round(bytes / 1e6 / (readMs / 1000), 1),
    handoff_print_ms: { p50: quantile(times, 0.5), p95: quantile(times, 0.95), five_mb_session: big },
    strategies: Object.fromEntries(STRATEGIES.map((k) => [k, summarize(scores[k], tokens[k])])),
  };
  await mkdir(path.join(here, 'results'), { recursive: true });
  const out = path.join(here, 'results', `${name}.json`);
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.error(`wrote ${out}`);
}

/** Recency at Baton's size: the newest messages of the transcript that fit, task pinned. */
function recency(session: AgentSession, size: number): string {
  const history: SplitHistory = { references: [], units: [] };
  appendHistory(history, sessionLoopEvents(session, '').slice(1));
  return buildRecency(history, size, o200kCounter, new Map()).text;
}

/** Read-and-build time of a 5 MB Codex session (the largest fixture's records repeated, call ids made unique). */
async function bigSessionTime(files: readonly string[], budget: number): Promise<number> {
  const sizes = await Promise.all(files.map(async (f) => ({ f, size: (await stat(f)).size })));
  const source = sizes.filter((x) => x.f.includes('/codex/')).sort((a, b) => b.size - a.size)[0]?.f as string;
  const text = await readFile(source, 'utf8');
  const copies = Math.ceil((5 * 1024 * 1024) / text.length);
  const big = path.join(os.tmpdir(), `baton-handoff-bench-${process.pid}.jsonl`);
  await writeFile(big, Array.from({ length: copies }, (_, k) => (k === 0 ? text : text.replace(/"call_/g, `"call_${k}_`))).join(''));
  const runs: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const t0 = performance.now();
    const { session } = await readSessionFile(big);
    await buildHandoff({ session, target: 'claude', budget });
    runs.push(performance.now() - t0);
  }
  await rm(big, { force: true });
  return quantile(runs, 0.95);
}

function summarize(scores: ReadonlyArray<Partial<Record<FactName, number>>>, tokens: readonly number[]) {
  const facts = Object.fromEntries(
    FACT_NAMES.map((n) => {
      const v = scores.map((s) => s[n]).filter((x): x is number => x !== undefined);
      return [n, v.length === 0 ? null : round(v.reduce((a, b) => a + b, 0) / v.length, 4)];
    }),
  ) as Record<FactName, number | null>;
  const scored = Object.values(facts).filter((v): v is number => v !== null);
  return {
    macro: round(scored.reduce((a, b) => a + b, 0) / scored.length, 4),
    facts,
    median_tokens: quantile(tokens, 0.5),
    max_tokens: Math.max(...tokens),
  };
}

async function sessionFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const sub of (await readdir(dir)).sort()) {
    const p = path.join(dir, sub);
    if (!(await stat(p)).isDirectory()) continue;
    for (const f of (await readdir(p)).sort()) if (/\.jsonl?$/.test(f)) out.push(path.join(p, f));
  }
  return out;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 10) / 10;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
