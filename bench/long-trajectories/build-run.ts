import path from 'node:path';
import { errorMessage, type Target } from './find-targets.js';
import type { Rng } from './prng.js';
import {
  insertionDiff,
  newFileDiff,
  pytestPassed,
  pytestWithNameError,
  reproScript,
  reproTraceback,
  type TargetNames,
  targetNames,
  testFile,
} from './python-outputs.js';
import type { SourceRepo } from './source-repo.js';
import * as view from './swe-agent-views.js';
import type { SweAgentTemplates } from './templates.js';
import { discussion, type ReflectVariant, type Stage, type ThoughtKind, type ThoughtSlots } from './thoughts.js';

/** The state SWE-agent records with a step: before the action (its `state`) or after (the prompt). */
interface ShellState {
  open_file: string;
  working_dir: string;
}

/** One model turn: its discussion, command, raw output and the shell state around it. */
export interface RunStep {
  thought: string;
  action: string;
  observation: string;
  before: ShellState;
  after: ShellState;
}

/** A finished synthetic run, ready to be written in SWE-agent's schema. */
export interface SyntheticRun {
  issue: string;
  task: string;
  steps: RunStep[];
  submission: string;
}

const REPRO = 'reproduce.py';

/** The issue text a user would file for the target, pointing at the real failing line. */
function issueText(rng: Rng, t: Target, n: TargetNames, script: string[], tb: string): string {
  const err = errorMessage(t);
  const title = rng.pick([
    `\`${n.qual}\` raises ${err.type} when \`${t.param}\` is None`,
    `${n.dotted}: ${n.qual}() crashes on None ${t.param}`,
    `Passing None as ${t.param} to ${n.qual} fails with ${err.type}`,
  ]);
  const opener = rng.pick([
    `Hi! I ran into a crash in \`${n.qual}\` from \`${n.dotted}\`.`,
    `While upgrading our service I noticed that \`${n.dotted}.${n.qual}\` does not accept \`None\` for \`${t.param}\`.`,
    `\`${n.qual}\` in \`${t.file.rel}\` assumes \`${t.param}\` is always set, but callers can legitimately pass \`None\`.`,
  ]);
  const tail = tb.trim().split('\n').slice(-3).join('\n');
  const expect = rng.pick([
    `I would expect \`${n.qual}\` to return \`None\` when \`${t.param}\` is \`None\`, like the other helpers in this module that treat a missing value as "nothing to do".`,
    `Expected behaviour: no exception; \`None\` in should give \`None\` out. The failing line is ${t.file.rel}#L${t.errLine}.`,
  ]);
  return `${title}\n${opener}\n\n**Steps to reproduce**\n\`\`\`python\n${script.join('\n')}\n\`\`\`\n\n**Actual output**\n\`\`\`\n${tail}\n\`\`\`\n\n${expect}\n`;
}

/** Builds a run of exactly `total` steps for one target. */
export function buildRun(rng: Rng, repo: SourceRepo, t: Target, total: number, templates: SweAgentTemplates): SyntheticRun {
  const n = targetNames(t);
  const files = new Map<string, string[]>(repo.files.map((f) => [f.rel, [...f.lines]]));
  const original = t.file.lines;
  const repro = reproScript(n);
  const tb = reproTraceback(repo.root, REPRO, repro.callLine, n, t, original);
  const issue = issueText(rng, t, n, repro.lines, tb);
  const task = templates.instance(issue, repo.root);
  const testRel = `tests/test_${t.func.replace(/^_+/, '')}.py`;
  const brokenTests = testFile(n, t, false);
  const fixedTests = testFile(n, t, true);
  const err = errorMessage(t);
  const base = path.posix.basename(t.file.rel);
  const guard = [`${t.indent}if ${t.param} is None:`, `${t.indent}    return None`];

  let open: string | undefined;
  let current = 0;
  let fixed = false;
  let reproRemoved = false;
  const steps: RunStep[] = [];
  const used = new Set<string>();
  let previous: ThoughtKind | ReflectVariant | undefined;
  let stage: Stage = 0;
  const recentMuses = new Set<string>();
  const baseSlots: ThoughtSlots = {
    func: t.func,
    qual: n.qual,
    file: t.file.rel,
    base,
    param: t.param,
    errType: err.type,
    errMsg: err.message,
    errLine: t.errLine,
    bodyLine: t.bodyLine,
    module: n.dotted,
    pkg: repo.pkg,
    repro: REPRO,
    test: testRel,
    testFail: brokenTests.brokenTest,
    ntests: brokenTests.tests.length,
  };
  let seen: ThoughtSlots = { ...baseSlots };

  const abs = (rel: string) => `${repo.root}/${rel}`;
  const state = (): ShellState => ({ open_file: open ? abs(open) : 'n/a', working_dir: repo.root });
  const lines = (rel: string) => files.get(rel) ?? [];
  const shown = () => (open ? path.posix.basename(open) : base);

  /** Runs one command: the thought is written before, the output computed by `exec`. */
  const step = (
    kind: ThoughtKind,
    action: string,
    slots: ThoughtSlots,
    exec: () => string,
    after: ThoughtSlots = {},
    reflectAs?: ReflectVariant,
  ) => {
    const all = { ...baseSlots, shown: shown(), ...slots };
    let thought = discussion(rng, previous, kind, stage, seen, all, recentMuses);
    if (rng.chance(0.12)) thought = `DISCUSSION\n${thought}`;
    const before = state();
    const observation = exec();
    steps.push({ thought, action: `${action}\n`, observation, before, after: state() });
    used.add(action);
    previous = reflectAs ?? kind;
    seen = { ...all, shown: shown(), ...after };
    if (kind === 'run_repro_fail' && stage < 1) stage = 1;
    if (kind === 'open_target' && stage < 2) stage = 2;
    if (kind === 'edit_fix') stage = 3;
  };

  const openAt = (kind: ThoughtKind, rel: string, line: number | undefined, extra: ThoughtSlots = {}) =>
    step(
      kind,
      line === undefined ? `open ${rel}` : `open ${rel} ${line}`,
      { line: line ?? 1, ...extra },
      () => {
        open = rel;
        current = line === undefined ? view.constrainLine(view.WINDOW / 2, lines(rel).length) : view.gotoCentre(line, lines(rel).length);
        return view.printWindow(abs(rel), lines(rel), current);
      },
      { other: path.posix.basename(rel) },
    );

  // Places elsewhere in the package that mention the function: what an agent opens to check callers.
  const callers: { rel: string; line: number }[] = [];
  for (const [rel, ls] of files) {
    if (rel === t.file.rel) continue;
    const i = ls.findIndex((l) => l.includes(t.func));
    if (i >= 0) callers.push({ rel, line: i + 1 });
  }
  const otherFiles = repo.files.filter((f) => f.rel !== t.file.rel && f.lines.length > 40);
  const defsOf = (rel: string) => lines(rel).flatMap((l, i) => (/^\s*(def|class) \w+/.test(l) ? [i + 1] : []));

  const explore = (phase: 'explore' | 'verify'): boolean => {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const choice = rng.pick(
        phase === 'explore'
          ? [
              'search_file',
              'search_file',
              'search_dir',
              'open_other',
              'open_other',
              'scroll_down',
              'scroll_down',
              'scroll_down',
              'scroll_up',
              'goto',
              'goto',
              'grep',
              'python_c',
              'rerun',
              'cat',
              'back',
            ]
          : [
              'search_dir',
              'open_other',
              'open_other',
              'scroll_down',
              'scroll_down',
              'scroll_up',
              'goto',
              'git_diff',
              'rerun_ok',
              'pytest_q',
              'back',
              'search_file',
            ],
      );
      const total = open ? lines(open).length : 0;
      switch (choice) {
        case 'search_file': {
          if (!open) break;
          const term = rng.pick(open === t.file.rel ? [t.param, t.func, `${t.param}.`, t.attr ?? t.param, 'None'] : [t.func, 'None']);
          const action = `search_file "${term}"`;
          if (used.has(`${action} ${open}`)) break;
          used.add(`${action} ${open}`);
          const out = view.searchFile(term, abs(open), lines(open));
          const count = Number(/^Found (\d+)/.exec(out)?.[1] ?? 0);
          step('search_file', action, { term }, () => out, { term, count }, count === 0 ? 'search_none' : undefined);
          return true;
        }
        case 'search_dir': {
          const term = rng.pick([t.func, `${t.func}(`, `import ${n.ref}`, err.type, t.cls ?? t.func]);
          const dir = rng.pick([repo.pkg, path.posix.dirname(t.file.rel)]);
          const action = `search_dir "${term}" ${dir}`;
          if (used.has(action)) break;
          const inDir = [...files]
            .filter(([rel]) => rel.startsWith(`${dir}/`) && rel.endsWith('.py'))
            .map(([rel, ls]) => ({ abs: abs(rel), lines: ls }));
          const out = view.searchDir(term, abs(dir), inDir);
          const count = out.split('\n').filter((l) => / \(\d+ matches\)$/.test(l)).length;
          const onlyTarget = count === 1 && out.includes(`${abs(t.file.rel)} (`);
          step(
            'search_dir',
            action,
            { term, dir },
            () => out,
            { term, dir, count },
            count === 0 ? 'search_none' : onlyTarget ? 'search_dir_one' : undefined,
          );
          return true;
        }
        case 'open_other': {
          const caller = callers.length > 0 && rng.chance(0.6);
          const pool = caller
            ? callers
            : otherFiles.map((f) => ({ rel: f.rel, line: rng.pick(defsOf(f.rel).length ? defsOf(f.rel) : [1]) }));
          if (pool.length === 0) break;
          const target = rng.pick(pool);
          if (used.has(`open ${target.rel} ${target.line}`) || open === target.rel) break;
          openAt(caller ? 'open_caller' : 'open_other', target.rel, target.line, { other: path.posix.basename(target.rel) });
          return true;
        }
        case 'scroll_down':
        case 'scroll_up': {
          if (!open) break;
          const direction = choice === 'scroll_down' ? 1 : -1;
          const next = view.scrollCentre(current, direction, total);
          // Paging straight back to the window just left is not what an agent does.
          if (next === current || previous === (choice === 'scroll_down' ? 'scroll_up' : 'scroll_down')) break;
          step(choice, choice, {}, () => {
            current = next;
            return view.printWindow(abs(open as string), lines(open as string), current);
          });
          return true;
        }
        case 'goto': {
          if (!open) break;
          const line = rng.pick(defsOf(open).length ? defsOf(open) : [1]);
          if (view.gotoCentre(line, total) === current) break;
          step(
            'goto',
            `goto ${line}`,
            { line },
            () => {
              current = view.gotoCentre(line, total);
              return view.printWindow(abs(open as string), lines(open as string), current);
            },
            { line },
          );
          return true;
        }
        case 'grep': {
          const action = `grep -n "^def \\|^class " ${t.file.rel}`;
          if (used.has(action)) break;
          step('grep', action, {}, () => view.grepN('^def \\|^class ', lines(t.file.rel)));
          return true;
        }
        case 'python_c': {
          const action = `python -c "import ${n.dotted}; print(${n.dotted}.__file__)"`;
          if (used.has(action)) break;
          step('python_c', action, { abs: abs(t.file.rel) }, () => `${abs(t.file.rel)}\n`, { abs: abs(t.file.rel) });
          return true;
        }
        case 'rerun': {
          if (steps.filter((s) => s.action === `python ${REPRO}\n`).length >= 3) break;
          step('rerun_repro_fail', `python ${REPRO}`, {}, () => tb);
          return true;
        }
        case 'rerun_ok': {
          if (used.has('rerun_ok')) break;
          used.add('rerun_ok');
          step('run_repro_ok', `python ${REPRO}`, {}, () => 'None\nScript completed successfully, no errors.\n');
          return true;
        }
        case 'cat': {
          if (used.has(`cat ${REPRO}`) || reproRemoved) break;
          step('cat_repro', `cat ${REPRO}`, {}, () => `${lines(REPRO).join('\n')}\n`);
          return true;
        }
        case 'back': {
          if (open === t.file.rel) break;
          const line = rng.pick([t.defLine, t.errLine, t.bodyLine]);
          if (used.has(`open ${t.file.rel} ${line}`)) break;
          openAt('open_target', t.file.rel, line);
          return true;
        }
        case 'git_diff': {
          if (!fixed || used.has('git diff')) break;
          step('git_diff', 'git diff', {}, () => insertionDiff(t.file.rel, original, t.bodyLine, guard, `${rng.hex(7)}..${rng.hex(7)}`));
          return true;
        }
        case 'pytest_q': {
          if (!files.has(testRel) || used.has(`python -m pytest ${testRel} -q`)) break;
          step('pytest_ok', `python -m pytest ${testRel} -q`, {}, () =>
            pytestPassed(rng, repo.root, testRel, fixedTests.tests.length, true),
          );
          return true;
        }
      }
    }
    // Paging through the open file always works and is what a stuck agent does.
    const total = open ? lines(open).length : 0;
    const rel = open ?? t.file.rel;
    const next = open ? view.scrollCentre(current, 1, total) : current;
    if (open && next !== current) {
      step('scroll_down', 'scroll_down', {}, () => {
        current = next;
        return view.printWindow(abs(rel), lines(rel), current);
      });
    } else {
      openAt('open_other', rel, 1 + (steps.length % Math.max(1, lines(rel).length)));
    }
    return true;
  };

  // Which optional parts fit: core steps first, then the ones a fuller run has.
  const core = 9; // create, write, run, find_file, open, goto, edit, run, submit
  let room = total - core;
  const withTests = room >= 5 + 4;
  if (withTests) room -= 5;
  const withLint = room >= 1 + 3 && rng.chance(0.7);
  if (withLint) room -= 1;
  const withLs = room >= 1 + 2;
  if (withLs) room -= 1;
  const withRm = room >= 1 + 1;
  if (withRm) room -= 1;
  const filler = Math.max(0, room);
  const exploreCount = Math.round(filler * (0.5 + rng.next() * 0.2));
  const verifyCount = filler - exploreCount;

  step('create_repro', `create ${REPRO}`, {}, () => {
    files.set(REPRO, ['']);
    open = REPRO;
    current = view.constrainLine(view.WINDOW / 2, 1);
    return view.printWindow(abs(REPRO), [''], current);
  });
  step('write_repro', `edit 1:1\n${repro.lines.join('\n')}\nend_of_edit`, {}, () => {
    files.set(REPRO, repro.lines);
    return view.editAppliedWhole(abs(REPRO), repro.lines);
  });
  step('run_repro_fail', `python ${REPRO}`, {}, () => tb);
  if (withLs) {
    const listing = ['LICENSE', 'README.rst', `${repo.pkg}/`, 'pyproject.toml', REPRO, 'setup.cfg', 'setup.py', 'tests/', 'tox.ini'].sort();
    step('ls', 'ls -F', {}, () => `${listing.join('\n')}\n`);
  }
  step('find_file', `find_file "${base}" ${repo.pkg}`, {}, () =>
    view.findFile(
      base,
      abs(repo.pkg),
      [...files.keys()].filter((rel) => rel.startsWith(`${repo.pkg}/`) && path.posix.basename(rel) === base).map(abs),
    ),
  );
  openAt('open_target', t.file.rel, t.errLine);
  for (let i = 0; i < exploreCount; i += 1) explore('explore');

  // The fix needs the target open with the function's start in view.
  if (open === t.file.rel) {
    step(
      'goto',
      `goto ${t.defLine}`,
      { line: t.defLine },
      () => {
        current = view.gotoCentre(t.defLine, original.length);
        return view.printWindow(abs(t.file.rel), original, current);
      },
      { line: t.defLine },
    );
  } else openAt('open_target', t.file.rel, t.defLine);

  const at = t.bodyLine;
  const kept = original[at - 1] ?? '';
  if (withLint) {
    const typo = rng.chance(0.5);
    const bad = typo
      ? [`${t.indent}if ${t.param} is Nnoe:`, `${t.indent}    return None`, kept]
      : [`if ${t.param} is None:`, '    return None', kept];
    const lint = typo ? "F821 undefined name 'Nnoe'" : 'E999 IndentationError: unexpected indent';
    step(
      'edit_lint_fail',
      `edit ${at}:${at}\n${bad.join('\n')}\nend_of_edit`,
      {},
      () => view.editRejected(abs(t.file.rel), original, at, at, bad, [lint]),
      { lint },
    );
  }
  step('edit_fix', `edit ${at}:${at}\n${[...guard, kept].join('\n')}\nend_of_edit`, {}, () => {
    const next = [...original.slice(0, at - 1), ...guard, ...original.slice(at - 1)];
    files.set(t.file.rel, next);
    fixed = true;
    current = view.editCentre(at, next.length);
    return view.editApplied(abs(t.file.rel), next, at);
  });
  step('run_repro_ok', `python ${REPRO}`, {}, () => 'None\nScript completed successfully, no errors.\n');
  if (withTests) {
    step('create_test', `create ${testRel}`, {}, () => {
      files.set(testRel, ['']);
      open = testRel;
      current = view.constrainLine(view.WINDOW / 2, 1);
      return view.printWindow(abs(testRel), [''], current);
    });
    step('write_test', `edit 1:1\n${brokenTests.lines.join('\n')}\nend_of_edit`, {}, () => {
      files.set(testRel, brokenTests.lines);
      return view.editAppliedWhole(abs(testRel), brokenTests.lines);
    });
    step('pytest_fail', `python -m pytest ${testRel}`, {}, () => pytestWithNameError(rng, repo.root, testRel, brokenTests));
    step('fix_test', `edit 1:1\nimport inspect\nimport pytest\nend_of_edit`, {}, () => {
      files.set(testRel, fixedTests.lines);
      return view.editAppliedWhole(abs(testRel), fixedTests.lines);
    });
    step('pytest_ok', `python -m pytest ${testRel}`, {}, () => pytestPassed(rng, repo.root, testRel, fixedTests.tests.length, false));
  }
  for (let i = 0; i < verifyCount; i += 1) explore('verify');
  if (withRm) {
    step('rm', `rm ${REPRO}`, {}, () => {
      files.delete(REPRO);
      reproRemoved = true;
      return '';
    });
  }
  // SWE-agent's submission is `git diff --cached` after `git add -A`, with a leading newline.
  const submission = `\n${[
    insertionDiff(t.file.rel, original, at, guard, `${rng.hex(7)}..${rng.hex(7)}`),
    ...(reproRemoved ? [] : [newFileDiff(REPRO, repro.lines, rng.hex(7))]),
    ...(withTests ? [newFileDiff(testRel, fixedTests.lines, rng.hex(7))] : []),
  ].join('')}`;
  step('submit', 'submit', {}, () => submission);
  if (steps.length !== total)
    throw new Error(`long-trajectories: built ${steps.length} steps for ${t.file.rel}:${t.func}, expected ${total}`);
  return { issue, task, steps, submission };
}
