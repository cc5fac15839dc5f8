/**
 * The consumer project itself (test/helpers/consumer-project.ts): Baton installed from the packed
 * tarball into a user's project, a TypeScript program compiled by that project's own tsc with
 * `skipLibCheck: false`, and a program's failure seen as its exit code. Installing the first
 * project takes minutes (better-sqlite3 compiles from source here); later ones reuse it.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, consumerProject } from '../helpers/consumer-project.js';

const INSTALL_TIMEOUT_MS = 1_200_000;
/** tsc with skipLibCheck false reads every .d.ts the package brings: slow on a busy machine. */
const PROGRAM_TIMEOUT_MS = 600_000;
let project: ConsumerProject;

beforeAll(async () => {
  project = await consumerProject();
}, INSTALL_TIMEOUT_MS);

describe('the consumer project', { timeout: PROGRAM_TIMEOUT_MS }, () => {
  it('has agent-baton installed from the packed tarball, not linked to the repository', async () => {
    const manifest = JSON.parse(await readFile(path.join(project.dir, 'package.json'), 'utf8'));
    expect(manifest.dependencies['agent-baton']).toMatch(/^file:.*agent-baton-[0-9a-f]+\.tgz$/);
    const installed = JSON.parse(await readFile(path.join(project.dir, 'node_modules', 'agent-baton', 'package.json'), 'utf8'));
    expect(installed.name).toBe('agent-baton');
    expect(installed.version).toBe(project.baton.version);
  });

  it('runs a TypeScript program against the built package, type-checked with skipLibCheck false', async () => {
    const result = await project.run(
      {
        'main.ts': [
          "import { REFRESH_FORMATS, type RefreshFormat, isBatonError } from 'agent-baton';",
          'const formats: readonly RefreshFormat[] = REFRESH_FORMATS;',
          "console.log(formats.join(','), isBatonError(new Error('x')));",
        ].join('\n'),
      },
      { entry: 'main.ts' },
    );
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ stage: 'run', code: 0 });
    expect(result.stdout.trim()).toBe('minimal,standard,detailed,narrative false');
  });

  it('reports a type error as the compile stage failing, with tsc’s message', async () => {
    const result = await project.run(
      { 'main.ts': "import { refreshContext } from 'agent-baton';\nrefreshContext(42);\n" },
      { entry: 'main.ts' },
    );
    expect(result.stage).toBe('compile');
    expect(result.code).not.toBe(0);
    expect(result.stdout).toContain('main.ts(2,16): error TS2345');
  });

  it('rejects a camelCase plan file through loadPlan + runPlan, and a plan-file spelling passed to runPlan, naming key and spelling', async () => {
    const result = await project.run(
      {
        'plan.json': JSON.stringify({
          tasks: [{ id: 'api', instructions: 'Add /health.', acceptanceCriteria: [{ description: 'ok', check: 'true' }] }],
        }),
        'main.mjs': [
          "import { loadPlan, MemoryLedger, runPlan } from 'agent-baton';",
          "import { fileURLToPath } from 'node:url';",
          "const here = fileURLToPath(new URL('.', import.meta.url));",
          "const options = { ledger: new MemoryLedger(), providers: [{ name: 'p', type: 'command', run: async () => ({}) }], workspaceDir: here };",
          'try {',
          "  await runPlan(await loadPlan('plan.json', { cwd: here }), options);",
          "  console.log('file: no error');",
          '} catch (error) {',
          "  console.log('file:', error.code, error.message.replace(here, '<dir>/'));",
          '}',
          'try {',
          "  await runPlan({ tasks: [{ id: 'api', instructions: 'x', acceptance_criteria: [{ description: 'ok', check: 'true' }] }] }, options);",
          "  console.log('code: no error');",
          '} catch (error) {',
          "  console.log('code:', error.code, error.message);",
          '}',
        ].join('\n'),
      },
      { entry: 'main.mjs' },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      'file: INPUT_INVALID Plan file <dir>/plan.json: tasks[0] (id "api"): unknown key "acceptanceCriteria" (did you mean "acceptance_criteria"?)',
      'code: INPUT_INVALID runPlan plan: tasks[0] (id "api"): unknown key "acceptance_criteria" (did you mean "acceptanceCriteria"?)',
    ]);
  });

  it('`baton run` on a camelCase plan exits 2 naming the task, the key and the spelling expected', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'baton-camel-plan-'));
    await writeFile(
      path.join(dir, 'plan.json'),
      JSON.stringify({ tasks: [{ id: 'api', instructions: 'Add /health.', dependsOn: [], acceptanceCriteria: ['ok'] }] }),
    );
    const result = await project.exec(path.join(project.dir, 'node_modules', '.bin', 'baton'), ['run', 'plan.json', '--ledger', 'memory'], {
      cwd: dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Plan file ${path.join(dir, 'plan.json')} is invalid:`);
    expect(result.stderr).toContain('tasks[0] (id "api"): unknown key "acceptanceCriteria" (did you mean "acceptance_criteria"?)');
    expect(result.stderr).toContain('tasks[0] (id "api"): unknown key "dependsOn" (did you mean "depends_on"?)');
  });

  it('runs .mjs programs with --unhandled-rejections=strict: a stray rejection fails the program', async () => {
    const result = await project.run(
      { 'main.mjs': "Promise.reject(new Error('stray'));\nsetTimeout(() => console.log('still running'), 50);\n" },
      { entry: 'main.mjs' },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Error: stray');
  });
});
