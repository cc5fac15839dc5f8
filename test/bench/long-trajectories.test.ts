import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATE_DIR, generateLongTrajectories, writeLongTrajectories } from '../../bench/long-trajectories.js';
import { DEFAULT_SOURCE_ROOTS } from '../../bench/long-trajectories/source-repo.js';
import {
  buildFull,
  extractKeyFacts,
  readTrajectories,
  SHARED_TRAJECTORY_DIR,
  splitHistory,
  type Trajectory,
} from '../../src/bench/index.js';
import { countTokens } from '../../src/tokens/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const stdlib = DEFAULT_SOURCE_ROOTS[0] ?? '/usr/lib/python3';
const hasStdlib = existsSync(stdlib);
if (!hasStdlib) console.warn(`[skip] ${stdlib} is absent: long-trajectory generator tests need real Python sources and are skipped.`);

// Embedded prompts (templateDir: null) so the suite never depends on ../shared.
const base = { sourceRoots: [stdlib], templateDir: null } as const;

describe.skipIf(!hasStdlib)('generated long SWE-agent trajectories', () => {
  let dir: string;
  let runs: Trajectory[];
  const steps = [60, 34];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'baton-long-traj-'));
    // minSteps = maxSteps pins each run's length; two calls give one 60-step and one short run.
    await writeLongTrajectories(dir, { ...base, count: 1, seed: 7, minSteps: steps[0], maxSteps: steps[0] });
    await writeLongTrajectories(path.join(dir, 'short'), { ...base, count: 1, seed: 8, minSteps: steps[1], maxSteps: steps[1] });
    const files = [
      ...(await readdir(dir)).filter((f) => f.endsWith('.traj')).map((f) => path.join(dir, f)),
      ...(await readdir(path.join(dir, 'short'))).map((f) => path.join(dir, 'short', f)),
    ];
    expect(files).toHaveLength(2);
    runs = (await Promise.all(files.map((f) => readTrajectories(f)))).flat();
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads back through the replay reader with the requested step counts', () => {
    expect(runs.map((r) => r.steps.length)).toEqual(steps);
    for (const r of runs) {
      expect(r.id).toMatch(/^generated__long__/);
      expect(r.format).toBe('swe-agent');
      for (const s of r.steps) expect(r.events[s]?.kind).toBe('assistant');
      // The demonstration is reference material, the task is the instance message.
      expect(r.events.some((e) => e.kind === 'user' && e.reference)).toBe(true);
    }
  });

  it('yields the key facts the benchmark scores: goal, edited paths, a last error', () => {
    for (const r of runs) {
      const facts = extractKeyFacts(r, r.events.length);
      expect(facts.goal.length).toBeGreaterThan(30);
      expect(r.task).toContain(facts.goal.slice(0, 20));
      expect(facts.editedPaths.length).toBeGreaterThan(0);
      expect(r.patchPaths.length).toBeGreaterThan(0);
      expect(facts.editedPaths.some((p) => r.patchPaths.some((q) => p.endsWith(q)))).toBe(true);
      expect(facts.lastError).toBeTruthy();
      // Mid-run the reproduction traceback is the last error, as in a real run.
      const early = extractKeyFacts(r, r.steps[3] as number);
      expect(early.lastError).toMatch(/Error: 'NoneType'|Error: object of type 'NoneType'/);
    }
  });

  it('is long: a 60-step run carries more than 30k o200k tokens of history', () => {
    const sixty = runs.find((r) => r.steps.length === 60) as Trajectory;
    expect(countTokens(buildFull(splitHistory(sixty.events)))).toBeGreaterThan(30_000);
  });

  it('shows real source: the traceback line is the real line of the real file', async () => {
    const json = JSON.parse(await readFile(path.join(dir, (await readdir(dir)).find((f) => f.endsWith('.traj')) as string), 'utf8'));
    const traceback = (json.trajectory as { observation: string }[]).find((s) => s.observation.startsWith('Traceback'))?.observation ?? '';
    const frame = /File "\/python__[^/]+\/([^"]+)", line (\d+), in (\w+)\n {4}(.*)/.exec(traceback);
    expect(frame).not.toBeNull();
    const [, rel, line, , code] = frame as RegExpExecArray;
    const real = (await readFile(path.join(stdlib, rel as string), 'utf8')).split('\n')[Number(line) - 1];
    expect(real?.trim()).toBe(code);
    expect(json.info.submission).toContain(`diff --git a/${rel} b/${rel}`);
    expect(json.info.generated.note).toMatch(/Synthetic/);
  });

  it('is deterministic: same seed gives byte-identical JSON, another seed differs', async () => {
    const opts = { ...base, count: 2, minSteps: 30, maxSteps: 40 };
    const a = JSON.stringify(await generateLongTrajectories({ ...opts, seed: 11 }));
    const b = JSON.stringify(await generateLongTrajectories({ ...opts, seed: 11 }));
    const c = JSON.stringify(await generateLongTrajectories({ ...opts, seed: 12 }));
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('rejects a step range it cannot build, naming the field', async () => {
    await expect(generateLongTrajectories({ ...base, minSteps: 3 })).rejects.toThrow(/minSteps must be an integer >= 9, got 3/);
    await expect(generateLongTrajectories({ ...base, minSteps: 40, maxSteps: 30 })).rejects.toThrow(
      /maxSteps must be an integer >= 40, got 30/,
    );
  });
});

const shared = path.resolve(root, SHARED_TRAJECTORY_DIR);
const hasShared = existsSync(shared) && path.resolve(DEFAULT_TEMPLATE_DIR) === shared;
if (!hasShared) console.warn(`[skip] ${shared} is absent (as in a user's clone): the shared-template long-trajectory test is skipped.`);

describe.skipIf(!hasStdlib || !hasShared)('generated long trajectories with the shared SWE-agent prompts', () => {
  it('reuses the real system prompt, demonstration and instructions verbatim', async () => {
    const generated = await generateLongTrajectories({ sourceRoots: [stdlib], count: 1, seed: 3, minSteps: 30, maxSteps: 30 });
    expect(generated).toHaveLength(1);
    const history =
      (generated[0]?.json as { history: { role: string; content: string; is_demo?: boolean; message_type?: string }[] } | undefined)
        ?.history ?? [];
    const real = JSON.parse(await readFile(path.join(shared, 'replay__marshmallow-1867__default_sys-env_window100.traj'), 'utf8'));
    expect(history[0]?.content).toBe(real.history[0].content);
    expect(history[1]).toMatchObject({ role: 'user', is_demo: true, message_type: 'demonstration' });
    const instructions = (real.history[1].content as string).split('INSTRUCTIONS:')[1]?.split('(Open file')[0];
    expect(history[2]?.content).toContain(instructions);
  });
});
