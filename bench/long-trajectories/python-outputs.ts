import { errorMessage, type Target } from './find-targets.js';
import type { Rng } from './prng.js';

/** How the scripts and tests refer to the target: import line, module reference, callable. */
export interface TargetNames {
  /** Dotted module, e.g. `email._header_value_parser`. */
  dotted: string;
  importLine: string;
  /** Name the module is bound to after importLine. */
  ref: string;
  /** `get_word` or `Header.fold`, as written after `ref.`. */
  qual: string;
  /** Call expression with None for each required argument. */
  call: string;
  /** For methods: the line that builds an instance without running __init__. */
  setup: string | undefined;
}

export function targetNames(t: Target): TargetNames {
  const parts = t.file.rel.replace(/\.py$/, '').split('/');
  const isInit = parts.at(-1) === '__init__';
  if (isInit) parts.pop();
  const dotted = parts.join('.');
  const ref = isInit ? dotted : (parts.at(-1) as string);
  const importLine = isInit
    ? `import ${dotted}`
    : parts.length > 1
      ? `from ${parts.slice(0, -1).join('.')} import ${ref}`
      : `import ${dotted}`;
  const args = Array.from({ length: Math.max(1, t.arity) }, () => 'None').join(', ');
  const qual = t.cls ? `${t.cls}.${t.func}` : t.func;
  const setup = t.cls ? `obj = ${ref}.${t.cls}.__new__(${ref}.${t.cls})` : undefined;
  const call = t.cls ? `obj.${t.func}(${args})` : `${ref}.${t.func}(${args})`;
  return { dotted, importLine, ref, qual, call, setup };
}

/** The reproduction script and the line of its call (1-based). */
export function reproScript(n: TargetNames): { lines: string[]; callLine: number } {
  const lines = [n.importLine, ''];
  if (n.setup) lines.push(n.setup);
  lines.push(`result = ${n.call}`);
  const callLine = lines.length;
  lines.push('print(result)', 'print("Script completed successfully, no errors.")');
  return { lines, callLine };
}

/** Python's traceback for the reproduction script, with the real line of the real file. */
export function reproTraceback(
  root: string,
  script: string,
  callLine: number,
  n: TargetNames,
  t: Target,
  targetLines: readonly string[],
): string {
  const err = errorMessage(t);
  return [
    'Traceback (most recent call last):',
    `  File "${root}/${script}", line ${callLine}, in <module>`,
    `    result = ${n.call}`,
    `  File "${root}/${t.file.rel}", line ${t.errLine}, in ${t.func}`,
    `    ${(targetLines[t.errLine - 1] ?? '').trim()}`,
    `${err.type}: ${err.message}`,
    '',
  ].join('\n');
}

/** The regression test file the agent writes; the third test forgets `import inspect` at first. */
export function testFile(
  n: TargetNames,
  t: Target,
  withInspect: boolean,
): { lines: string[]; tests: string[]; brokenTest: string; brokenLine: number } {
  const f = t.func.replace(/^_+/, '');
  const tests = [`test_${f}_accepts_none`, `test_${f}_is_callable`, `test_${f}_keeps_${t.param}_parameter`];
  const lines = [...(withInspect ? ['import inspect'] : []), 'import pytest', '', n.importLine, '', ''];
  lines.push(`def ${tests[0]}():`);
  if (n.setup) lines.push(`    ${n.setup}`);
  lines.push(`    assert ${n.call} is None`, '', '');
  lines.push(`def ${tests[1]}():`, `    assert callable(${n.ref}.${n.qual})`, '', '');
  lines.push(`def ${tests[2]}():`);
  const brokenLine = lines.length + 1;
  lines.push(`    params = inspect.signature(${n.ref}.${n.qual}).parameters`, `    assert "${t.param}" in params`);
  return { lines, tests, brokenTest: tests[2] as string, brokenLine };
}

const WIDTH = 80;

function banner(text: string, ch: string): string {
  const fill = Math.max(2, WIDTH - text.length - 2);
  const left = Math.floor(fill / 2);
  return `${ch.repeat(left)} ${text} ${ch.repeat(fill - left)}`;
}

function progress(file: string, marks: string): string {
  const left = `${file} ${marks}`;
  return `${left}${' '.repeat(Math.max(1, WIDTH - left.length - 6))}[100%]`;
}

const seconds = (rng: Rng) => `${(0.02 + rng.int(0, 40) / 100).toFixed(2)}s`;

/** `python -m pytest FILE` with the NameError failure in the last test. */
export function pytestWithNameError(rng: Rng, root: string, testRel: string, test: ReturnType<typeof testFile>): string {
  const broken = test.lines[test.brokenLine - 1] ?? '';
  return [
    banner('test session starts', '='),
    'platform linux -- Python 3.9.19, pytest-8.1.1, pluggy-1.5.0',
    `rootdir: ${root}`,
    `collected ${test.tests.length} items`,
    '',
    progress(testRel, '..F'),
    '',
    banner('FAILURES', '='),
    banner(test.brokenTest, '_'),
    '',
    `    def ${test.brokenTest}():`,
    `>   ${broken}`,
    "E       NameError: name 'inspect' is not defined",
    '',
    `${testRel}:${test.brokenLine}: NameError`,
    banner('short test summary info', '='),
    `FAILED ${testRel}::${test.brokenTest} - NameError: name 'inspect' is not defined`,
    banner(`1 failed, ${test.tests.length - 1} passed in ${seconds(rng)}`, '='),
    '',
  ].join('\n');
}

/** A green run, in the default or the `-q` format. */
export function pytestPassed(rng: Rng, root: string, testRel: string, count: number, quiet: boolean): string {
  if (quiet) return `${progress('', '.'.repeat(count)).trimStart()}\n${count} passed in ${seconds(rng)}\n`;
  return [
    banner('test session starts', '='),
    'platform linux -- Python 3.9.19, pytest-8.1.1, pluggy-1.5.0',
    `rootdir: ${root}`,
    `collected ${count} items`,
    '',
    progress(testRel, '.'.repeat(count)),
    '',
    banner(`${count} passed in ${seconds(rng)}`, '='),
    '',
  ].join('\n');
}

/** A unified diff hunk for lines inserted before `at` (1-based) of `before`, as `git diff` prints it. */
export function insertionDiff(rel: string, before: readonly string[], at: number, inserted: readonly string[], index: string): string {
  const first = Math.max(1, at - 3);
  const last = Math.min(before.length, at + 2);
  const context = (a: number, b: number) => before.slice(a - 1, b).map((l) => ` ${l}`);
  const oldCount = last - first + 1;
  let funcname = '';
  for (let k = first - 1; k >= 1; k -= 1) {
    if (/^[A-Za-z_$]/.test(before[k - 1] ?? '')) {
      funcname = ` ${(before[k - 1] ?? '').trimEnd()}`;
      break;
    }
  }
  return [
    `diff --git a/${rel} b/${rel}`,
    `index ${index} 100644`,
    `--- a/${rel}`,
    `+++ b/${rel}`,
    `@@ -${first},${oldCount} +${first},${oldCount + inserted.length} @@${funcname}`,
    ...context(first, at - 1),
    ...inserted.map((l) => `+${l}`),
    ...context(at, last),
    '',
  ].join('\n');
}

/** A diff that adds a new file. */
export function newFileDiff(rel: string, lines: readonly string[], blob: string): string {
  return [
    `diff --git a/${rel} b/${rel}`,
    'new file mode 100644',
    `index 0000000..${blob}`,
    '--- /dev/null',
    `+++ b/${rel}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
}
