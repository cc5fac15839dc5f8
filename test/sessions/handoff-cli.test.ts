import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { o200kCounter } from '../../src/tokens/index.js';
import { git } from '../../src/workspace/index.js';
import { tempDir } from '../helpers/cli.js';
import { layOutStores, runBin, storeEnv } from './session-stores-helper.js';

describe('baton handoff (the real bin, stores in a temp HOME)', () => {
  let root: string;
  let home: string;
  let workspace: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const t = await tempDir('baton-handoff-');
    cleanup = t.cleanup;
    root = t.dir;
    home = path.join(root, 'home');
    workspace = path.join(root, 'project');
    await mkdir(path.join(workspace, 'sub'), { recursive: true });
    await git(['init', '-q'], workspace);
    await layOutStores(home, workspace);
  });
  afterAll(() => cleanup());

  it('--print prints the handoff of the chosen session within the budget, starting with ---, and records it', async () => {
    const env = storeEnv(home);
    const run = await runBin(['handoff', '--from', 'codex', '--to', 'gemini', '--budget', '1500', '--print'], workspace, env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('--- Handoff from Codex CLI to Gemini CLI (Baton) ---')).toBe(true);
    expect(run.stdout).toContain('## Codex CLI session 019c45b2');
    expect(run.stdout).toContain('## Transcript');
    expect(o200kCounter.count(run.stdout)).toBeLessThanOrEqual(1500);
    const ledger = await openLedger({ spec: env.BATON_LEDGER as string, cwd: workspace });
    try {
      const audit = await ledger.listRecords<{ from: string; to: string; tokens: number }>('audit', { status: 'handoff' });
      expect(audit.items[0]?.data).toMatchObject({ from: 'codex-019c45b2-846a-7fa1-9ed7-42354e9982fd', to: 'gemini' });
    } finally {
      await ledger.close();
    }
  });

  it('without --print starts the target CLI with the handoff as one prompt argument, and returns its exit code', async () => {
    const bin = path.join(root, 'bin');
    await mkdir(bin, { recursive: true });
    const argsFile = path.join(root, 'claude-args.json');
    const fake = path.join(bin, 'claude');
    await writeFile(
      fake,
      `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify(process.argv.slice(2)));\nprocess.exit(7);\n`,
    );
    await chmod(fake, 0o755);
    const env = { ...storeEnv(home), PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
    const run = await runBin(['handoff', '--from', 'copilot'], workspace, env);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('handing copilot-3cc3555e-5462-44f9-95de-c67b1cb220b9 to claude');
    const args = JSON.parse(await readFile(argsFile, 'utf8')) as string[];
    expect(args.slice(0, 2)).toEqual(['-p', '--']);
    expect(args).toHaveLength(3);
    expect(args[2]?.startsWith('--- Handoff from Copilot CLI to Claude Code (Baton) ---')).toBe(true);
    expect(args[2]).toContain('Task: /init');
  });

  it('names the field and value of a bad --to, and an unknown session', async () => {
    const env = storeEnv(home);
    const bad = await runBin(['handoff', '--to', 'vim', '--print'], workspace, env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--to must be one of claude, codex, gemini, copilot, opencode; got "vim"');
    const none = await runBin(['handoff', '--from', 'ffffffff', '--print'], workspace, env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no session of this workspace has the id "ffffffff"');
  });
});
