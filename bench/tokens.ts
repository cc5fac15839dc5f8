/**
 * `npm run bench -- tokens [--runs N] [--sizes BYTES,...] [--dist DIR] [--no-pack]`: how long o200k
 * counting takes on the texts that made it quadratic (issue 34 item 5: 64 KB of `-` took 4.3 s,
 * 256 KB 46 s, packSections on 20 MB of one letter gave no answer in 30 s), and on ordinary text.
 * - `countTokens` and `truncateToTokens(…, 1000)` of a run of one character, per character
 *   (ASCII punctuation, letters, digits, whitespace, Latin-1, CJK, an emoji, a combining mark),
 *   per size (default 1 MiB): the target is under 1 s each;
 * - `packSections` of 20 MiB of one letter into 4,000 tokens (head and tail kept);
 * - the throughput on ordinary text: every file of src/, docs/ and test/ joined.
 * Wall and CPU time (process.cpuUsage: the machine is shared), medians of `--runs` (default 3),
 * the first call of each case included (the caches are per piece, a run's chunks are one piece).
 * `--dist DIR` measures the tokens and budget modules of another build (DIR/tokens/index.js,
 * DIR/budget/index.js: the build before a change; give it small `--sizes`, the old merge was
 * quadratic). Writes bench/results/tokens.json (bench/results/tokens-dist.json with --dist).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const CHARACTERS = ['-', '=', 'a', 'A', '7', ' ', '\n', 'é', '中', '😀', '\u0301', '\u00a0'];
const MIB = 1 << 20;

interface Tokens {
  countTokens(text: string): number;
  truncateToTokens(text: string, maxTokens: number, keep?: 'head' | 'tail'): string;
}
interface Budget {
  packSections(
    sections: Array<{ id: string; text: string; priority: number; overflow?: 'head-tail' }>,
    options: { budget: number },
  ): { tokens: number };
}

export default async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 3);
  const sizes = (flag(args, '--sizes') ?? String(MIB)).split(',').map(Number);
  const dist = flag(args, '--dist');
  const from = dist ? pathToFileURL(path.resolve(dist)).href + '/' : new URL('../src/', import.meta.url).href;
  const tokens = (await import(`${from}tokens/index.js`)) as Tokens;
  const budget = (await import(`${from}budget/index.js`)) as Budget;
  const load = [loadavg()[0] ?? 0];
  tokens.countTokens('load the vocabulary');

  const runsOfOne: Record<string, unknown> = {};
  for (const size of sizes) {
    for (const character of CHARACTERS) {
      const text = character.repeat(Math.floor(size / character.length));
      const count = measure(runs, () => tokens.countTokens(text));
      const head = measure(runs, () => tokens.truncateToTokens(text, 1000));
      runsOfOne[`${label(character)} x ${size}`] = {
        tokens: count.value,
        count_ms: count.times,
        truncate_1000_ms: head.times,
      };
      process.stderr.write(`${label(character)} x ${size}: count ${count.times.wall} ms, truncate ${head.times.wall} ms\n`);
    }
  }
  const pack = args.includes('--no-pack')
    ? undefined
    : measure(1, () =>
        budget.packSections(
          [
            { id: 'log', text: 'x'.repeat(20 * MIB), priority: 1, overflow: 'head-tail' },
            { id: 'task', text: 'Fix the login bug.', priority: 9 },
          ],
          { budget: 4000 },
        ),
      );
  const corpus = ordinaryText();
  const ordinary = measure(runs, () => tokens.countTokens(corpus));
  load.push(loadavg()[0] ?? 0);
  const results = {
    bench: 'tokens',
    build: dist ?? 'src',
    node: process.version,
    cpus: cpus().length,
    load_avg_1m: load.map((l) => Number(l.toFixed(2))),
    runs,
    target: 'a run of one character of 1 MiB: countTokens and truncateToTokens under 1,000 ms each',
    runs_of_one_character: runsOfOne,
    pack_20_mib_of_one_letter_ms: pack?.times,
    ordinary_text: {
      bytes: Buffer.byteLength(corpus),
      tokens: ordinary.value,
      ms: ordinary.times,
      mib_per_s_cpu: Number((Buffer.byteLength(corpus) / MIB / (ordinary.times.cpu / 1000)).toFixed(1)),
    },
  };
  await mkdir(path.join(HERE, 'results'), { recursive: true });
  await writeFile(path.join(HERE, 'results', dist ? 'tokens-dist.json' : 'tokens.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

/** Median wall and CPU milliseconds of `runs` calls, and the last call's value. */
function measure<T>(runs: number, fn: () => T): { value: T; times: { wall: number; cpu: number } } {
  const wall: number[] = [];
  const cpu: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const usage = process.cpuUsage();
    value = fn();
    const used = process.cpuUsage(usage);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  return { value: value as T, times: { wall: median(wall), cpu: median(cpu) } };
}

/** Every text file of src/, docs/ and test/, joined: code, prose, JSON and logs as Baton counts them. */
function ordinaryText(): string {
  const parts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(ts|md|json)$/.test(name)) parts.push(readFileSync(file, 'utf8'));
    }
  };
  for (const dir of ['src', 'docs', 'test']) walk(path.join(ROOT, dir));
  return parts.join('\n');
}

function label(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return code > 0x20 && code < 0x7f ? character : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1));
}

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
