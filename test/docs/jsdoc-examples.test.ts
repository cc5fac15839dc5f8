/**
 * Every `@example` in src/ type-checks against the real signatures (issue 27: `buildTaskPrompt`'s
 * example passed an `excludeTaskId` option that does not exist). The names an example only uses
 * are imported from its file or the package root when exported, else declared `any`; what is left
 * is checked as written. A wrong example in the same run must fail, so the check cannot pass by
 * checking nothing.
 */
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/consumer-project.js';
import { checkJsDocExamples, type JsDocExample, jsDocExamples } from './helpers/jsdoc-examples.js';

/** An example with an option that does not exist, checked beside the real ones. */
const CANARY: JsDocExample = {
  file: 'src/prompt/build-task-prompt.ts',
  line: 1,
  firstLine: 1,
  code: 'buildTaskPrompt(task, await loadPromptState(ledger, { window: 5, excludeTaskId: task.id }), { workingDirectory })\n',
};

describe('the @example of every function in src/', () => {
  it('type-checks against its real signature (and the canary with an unknown option does not)', () => {
    const examples = jsDocExamples(REPO_ROOT);
    expect(examples.length).toBeGreaterThan(20);
    const errors = checkJsDocExamples(REPO_ROOT, [...examples, { ...CANARY, file: CANARY.file, line: 0, firstLine: 0 }]);
    const canary = errors.filter((e) => e.startsWith(`${CANARY.file}:0:`));
    expect(canary).toEqual([expect.stringMatching(/TS2353 .*'excludeTaskId' does not exist in type 'LoadPromptStateOptions'/)]);
    expect(errors.filter((e) => !canary.includes(e)).join('\n')).toBe('');
  }, 300_000);
});
