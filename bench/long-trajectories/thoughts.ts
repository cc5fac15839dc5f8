import type { Rng } from './prng.js';

/** What a discussion may mention: names the agent has actually seen. */
export type ThoughtSlots = Record<string, string | number>;

/** How far the run is: 0 start, 1 failure reproduced, 2 code read, 3 fixed. */
export type Stage = 0 | 1 | 2 | 3;

/** What the agent saw last (reflection) and is about to do (plan). */
export type ThoughtKind =
  | 'start'
  | 'create_repro'
  | 'write_repro'
  | 'run_repro_fail'
  | 'ls'
  | 'find_file'
  | 'open_target'
  | 'search_file'
  | 'search_dir'
  | 'open_other'
  | 'open_caller'
  | 'scroll_down'
  | 'scroll_up'
  | 'goto'
  | 'grep'
  | 'python_c'
  | 'rerun_repro_fail'
  | 'edit_lint_fail'
  | 'edit_fix'
  | 'run_repro_ok'
  | 'create_test'
  | 'write_test'
  | 'pytest_fail'
  | 'fix_test'
  | 'pytest_ok'
  | 'git_diff'
  | 'cat_repro'
  | 'rm'
  | 'submit';

/** A reflection that depends on what the output held, not only on the command. */
export type ReflectVariant = 'search_none' | 'search_dir_one';

/** First sentence(s): what the last observation showed. Keyed by the previous action. */
const REFLECT: Partial<Record<ThoughtKind | ReflectVariant, string[]>> = {
  search_none: [
    'There are no matches for `{term}` in `{shown}`, so this file does not deal with it directly.',
    'Nothing in `{shown}` matches `{term}`; that part of the code is not involved.',
  ],
  search_dir_one: ['Only one file under `{dir}` mentions `{term}`: `{base}` itself, so there are no other callers to worry about.'],
  create_repro: ['The `{repro}` file has been created and is currently empty.', 'We now have an empty `{repro}` file open in the editor.'],
  write_repro: [
    'The reproduction script is in place and mirrors the snippet from the issue: it imports `{module}` and calls `{qual}` with `None` for `{param}`.',
    "The script looks right; it calls `{qual}` with `{param}=None` just like the issue's example.",
  ],
  run_repro_fail: [
    'We can reproduce the problem: the script fails with `{errType}: {errMsg}`, and the traceback points at line {errLine} of `{file}`, inside `{func}`.',
    'The bug reproduces. The traceback ends in `{func}` at line {errLine} of `{file}` with `{errType}`, which matches the report in the issue.',
  ],
  rerun_repro_fail: [
    'Running the script again gives the same `{errType}` from line {errLine} of `{file}`, so nothing has changed yet, as expected since we have not edited anything.',
  ],
  ls: [
    'The repository root contains the `{pkg}` package next to the usual project files, so the source we need is under `{pkg}/`.',
    'The listing shows the `{pkg}` package directory along with a `tests` folder and the packaging files.',
  ],
  find_file: ['`find_file` located `{file}` inside the `{pkg}` package.', 'There is exactly the file we expected: `{file}`.'],
  open_target: [
    'We are now looking at `{func}` in `{base}`. Line {errLine} uses `{param}` directly without checking whether it is `None`, which explains the `{errType}`.',
    'This is the code of `{func}`. The body dereferences `{param}` at line {errLine} before anything validates it, so a `None` argument fails right there.',
  ],
  search_file: [
    'The search shows {count} places in `{shown}` that mention `{term}`, which gives a sense of how the value flows through the module.',
    'Searching `{shown}` for `{term}` returned {count} hits; most of them are in other functions, not in `{func}` itself.',
  ],
  search_dir: [
    'The search across `{dir}` found `{term}` in {count} files, so the code around `{func}` is used in several places that might rely on the current behaviour.',
    'So `{term}` appears in {count} files under `{dir}`. We should make sure a fix in `{func}` does not break any of them.',
  ],
  open_caller: [
    'This is `{other}` where `{func}` is mentioned. It shows how the surrounding code passes values into it.',
    'Looking at `{other}`, the code here does not seem to guard against `None` before calling into `{base}` either.',
  ],
  open_other: [
    'This is `{other}`, another module of the `{pkg}` package. It does not call `{func}` directly, but it follows the same conventions for optional arguments.',
    'The code in `{other}` is related but does not touch `{func}`; it mostly checks for `None` explicitly before using values, which supports adding a guard.',
  ],
  scroll_down: [
    'Scrolling down shows the rest of this part of `{shown}`; nothing here handles a missing `{param}`.',
    'The next window of `{shown}` continues the implementation; it does not add any special handling for `None`.',
  ],
  scroll_up: [
    'Scrolling back up shows the code that precedes this section of `{shown}`, including the imports and helpers it relies on.',
    'The previous window of `{shown}` gives more context on the helpers defined before this point.',
  ],
  goto: ['We are now at line {line} of `{shown}`.', 'The editor now shows the area around line {line} of `{shown}`.'],
  grep: [
    'The grep output lists the definitions in `{base}`, which helps to see which functions sit next to `{func}`.',
    'This overview of `{base}` shows where `{func}` sits among the other definitions.',
  ],
  python_c: [
    'The module is loaded from `{abs}`, so the copy in the repository is the one the script exercises and there is no stale installed version.',
  ],
  edit_lint_fail: [
    'The edit was rejected by the linter with `{lint}`; I need to fix that before it can be applied.',
    'My edit command did not pass the syntax check (`{lint}`). I will fix the edit and try again.',
  ],
  edit_fix: [
    'The guard is now in place at the top of `{func}`, with the original first statement kept right after it and the indentation matching the surrounding code.',
    'The edit was applied: `{func}` now returns early when `{param}` is `None`, and the rest of the body is unchanged.',
  ],
  run_repro_ok: [
    'The script now prints `None` and completes successfully, so `{qual}` no longer raises `{errType}` for `None`.',
    'The reproduction script runs to completion and prints `None`, which is the behaviour the issue asked for.',
  ],
  create_test: ['The test file `{test}` has been created and is empty.'],
  write_test: [
    'The test file now has three small tests: the `None` case from the issue plus two checks that the public interface of `{func}` is unchanged.',
  ],
  pytest_fail: [
    'One test fails, but not because of the fix: `{testFail}` raises `NameError` because I forgot to import `inspect` in `{test}`.',
    'The failure is in the test file itself: `inspect` is used in `{test}` without being imported, so `{testFail}` errors out.',
  ],
  fix_test: ['The import of `inspect` is now at the top of `{test}`.'],
  pytest_ok: ['All {ntests} tests in `{test}` pass now, including the `None` case.', 'The test run is green: {ntests} passed.'],
  git_diff: ['The diff only touches `{file}` and contains exactly the two lines of the guard, which is the minimal change we wanted.'],
  cat_repro: ['The script still contains the original example from the issue.'],
  rm: ['`rm` produced no output, so the reproduction script has been removed.'],
};

/** Last sentence(s): what the agent does next and why. Keyed by the next action. */
const PLAN: Record<ThoughtKind, string[]> = {
  start: [
    "Let's first start by reproducing the results of the issue. The issue includes example code for reproduction, which we can use. We'll create a new file called `{repro}` and paste the example code into it.",
  ],
  create_repro: [
    "Let's first start by reproducing the results of the issue. The issue includes example code for reproduction, which we can use. We'll create a new file called `{repro}` and paste the example code into it.",
  ],
  write_repro: [
    "Now let's paste in the example code from the issue, and print the result so we can see what the function returns once it stops raising.",
  ],
  run_repro_fail: ["Now let's run the code to see if we see the same error as the issue."],
  ls: ["Before opening the source, let's check the layout of the repository to see where the `{pkg}` package lives."],
  find_file: ["Let's use find_file to locate `{base}` inside the package, so that we can open it at the line from the traceback."],
  open_target: ["Let's open `{file}` at line {line} to look at the code of `{func}` around the failing statement."],
  search_file: ["Let's search the open file for `{term}` to see how `{shown}` treats it.", "Let's search `{shown}` for `{term}`."],
  search_dir: ["Let's search `{dir}` for `{term}` to find the other places that use it.", "Let's look for `{term}` across `{dir}`."],
  open_caller: ["Let's open `{other}` around line {line} to see how it uses `{func}` and whether it already expects `None`."],
  open_other: [
    "Let's open `{other}` at line {line} to compare how that module handles optional values.",
    "Let's take a look at `{other}` around line {line}, which is closely related to `{base}`.",
  ],
  scroll_down: ["Let's scroll down to read the rest of this section."],
  scroll_up: ["Let's scroll up to see the code that comes before this window."],
  goto: ["Let's jump to line {line} to look at that part of `{shown}` directly instead of scrolling."],
  grep: ["To get an overview of the module, let's list the top-level definitions in `{base}` with grep."],
  python_c: ["Let's double-check which copy of `{module}` Python actually imports, to make sure we are editing the file the script runs."],
  rerun_repro_fail: ["Let's run the reproduction script once more to confirm the exact line that fails before changing anything."],
  edit_lint_fail: [
    'I will add a guard at the start of the body of `{func}` that returns `None` when `{param}` is `None`, keeping the original first statement (line {bodyLine}) after it.',
  ],
  edit_fix: [
    'I will add a guard at the start of the body of `{func}` that returns `None` when `{param}` is `None`, keeping the original first statement (line {bodyLine}) after it and using the same indentation as the rest of the body.',
  ],
  run_repro_ok: ["Now let's run the reproduction script again to verify that the fix works."],
  create_test: ["To protect the fix, let's add a regression test in `{test}`."],
  write_test: ["Let's write the tests: one for the `None` case from the issue and two that check the function's interface did not change."],
  pytest_fail: ["Let's run the new tests with pytest."],
  fix_test: ["Let's add the missing `import inspect` at the top of the test file."],
  pytest_ok: ["Let's run the tests again."],
  git_diff: ["Let's review the change to the source with git diff before cleaning up."],
  cat_repro: ["Let's look at the reproduction script again to confirm what it exercises."],
  rm: ["The fix is verified, so let's remove `{repro}` since it is no longer needed."],
  submit: [
    "Now that we have fixed the issue and verified it with the script and the tests, we should submit our changes to the code base. Let's submit the changes using the `submit` command.",
  ],
};

/** Middle sentences that keep the reasoning on the issue; used to vary length and tone. */
/** Middle sentences that keep the reasoning on the issue, each valid from one stage of the run to another. */
const MUSE: [string, Stage, Stage][] = [
  [
    'The issue says `{qual}` should cope with `{param}` being `None` instead of failing with `{errType}`, so the fix most likely belongs at the top of `{func}`.',
    0,
    2,
  ],
  [
    'Returning early is the least invasive change: callers that pass real values are unaffected, and the `None` case gets a well-defined result.',
    2,
    3,
  ],
  ['I want to understand how `{param}` is used further down in `{func}` so the guard does not hide a different problem.', 2, 2],
  [
    'It is worth keeping in mind that other functions in `{base}` may make the same assumption about `{param}`, but the issue is only about `{func}`.',
    2,
    3,
  ],
  [
    'The traceback from the reproduction script points at line {errLine}, so that is the first place where `{param}` is dereferenced.',
    1,
    2,
  ],
  ['Since the report mentions `{errType}`, the guard should be placed before line {errLine}, where the value is first used.', 1, 2],
  [
    'We should keep the change minimal and consistent with the style of `{base}`, which uses plain `if ... is None` checks elsewhere.',
    2,
    3,
  ],
  ['Nothing else in this window looks related to the bug, so there is no need to change code outside of `{func}`.', 2, 2],
  ['The issue only describes the `None` case, so once that works the remaining step is to make sure nothing else regressed.', 3, 3],
  ['Since the fix is a two-line guard, its only observable effect should be on the `None` case described in the issue.', 3, 3],
  ['The issue gives a complete snippet, so reproducing it first is the quickest way to confirm we are looking at the same failure.', 0, 0],
  ['Once the failure is confirmed, we can locate `{func}` in `{file}` and look at the code around the failing line.', 0, 1],
];

function fill(template: string, slots: ThoughtSlots): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => (slots[key] === undefined ? m : String(slots[key])));
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * A DISCUSSION-style thought of 40–200 words: a reflection on the last observation, optional
 * reasoning about the issue, and the plan for the next command. `seen` fills the reflection (the
 * names the last step produced), `slots` the rest.
 */
export function discussion(
  rng: Rng,
  previous: ThoughtKind | ReflectVariant | undefined,
  next: ThoughtKind,
  stage: Stage,
  seen: ThoughtSlots,
  slots: ThoughtSlots,
  recent: Set<string> = new Set(),
): string {
  const parts: string[] = [];
  const reflect = previous ? REFLECT[previous] : undefined;
  if (reflect) parts.push(fill(rng.pick(reflect), seen));
  // Muses used in the last few turns are skipped so consecutive thoughts do not repeat themselves.
  const fresh = MUSE.filter(([text, from, to]) => stage >= from && stage <= to && !recent.has(text)).map(([text]) => text);
  const muses = rng.shuffle(fresh.length > 0 ? fresh : MUSE.filter(([, from, to]) => stage >= from && stage <= to).map(([text]) => text));
  let m = 0;
  const plan = fill(rng.pick(PLAN[next]), slots);
  const take = () => {
    const text = muses[m++] as string;
    recent.add(text);
    if (recent.size > 3) recent.delete(recent.values().next().value as string);
    parts.push(fill(text, slots));
  };
  if (rng.chance(0.45)) take();
  while (words([...parts, plan].join(' ')) < 40 && m < muses.length) take();
  parts.push(plan);
  return parts.join(rng.chance(0.3) ? '\n\n' : ' ');
}
