import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSessionFiles, sessionStores, workspaceRoots } from '../../src/sessions/index.js';
import { git } from '../../src/workspace/index.js';
import { tempDir } from '../helpers/cli.js';
import { layOutOpencodeDb, OPENCODE_MAIN } from './opencode-store-helper.js';
import { runBin, storeEnv } from './session-stores-helper.js';

describe("OpenCode's store: discovery, import and handoff (the real database, the real bin)", () => {
  let home: string;
  let workspace: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const t = await tempDir('baton-opencode-');
    cleanup = t.cleanup;
    home = path.join(t.dir, 'home');
    workspace = path.join(t.dir, 'project');
    await mkdir(path.join(workspace, 'sub'), { recursive: true });
    await git(['init', '-q'], workspace);
  });
  afterEach(() => cleanup());

  const opencodeOnly = (files: Awaited<ReturnType<typeof discoverSessionFiles>>) => files.filter((f) => f.client === 'opencode');

  it("finds this workspace's top-level sessions in $XDG_DATA_HOME/opencode, not another folder's nor a sub-agent's", async () => {
    const data = path.join(home, 'xdg-data');
    const db = await layOutOpencodeDb(path.join(data, 'opencode', 'opencode.db'), path.join(workspace, 'sub'), '/somewhere/else');
    const env = { ...storeEnv(home), XDG_DATA_HOME: data };
    const found = opencodeOnly(await discoverSessionFiles(sessionStores(env), await workspaceRoots(workspace)));
    expect(found).toEqual([
      { client: 'opencode', file: `${db}#${OPENCODE_MAIN}`, size: expect.any(Number), mtimeMs: 1795929767104, placed: true },
    ]);
    expect(found[0]?.size).toBeGreaterThan(1000);
  });

  it('reads ~/.local/share/opencode by default, a channel database beside it, and only OPENCODE_DB when it is set', async () => {
    const dataDir = path.join(home, '.local', 'share', 'opencode');
    await layOutOpencodeDb(path.join(dataDir, 'opencode.db'), workspace, '/elsewhere');
    await layOutOpencodeDb(path.join(dataDir, 'opencode-beta.db'), workspace, '/elsewhere');
    const custom = await layOutOpencodeDb(path.join(dataDir, 'mine.db'), workspace, '/elsewhere');
    const roots = await workspaceRoots(workspace);
    const env = { ...storeEnv(home), XDG_DATA_HOME: '' };
    expect(opencodeOnly(await discoverSessionFiles(sessionStores(env), roots)).map((f) => path.basename(f.file))).toEqual([
      `opencode-beta.db#${OPENCODE_MAIN}`,
      `opencode.db#${OPENCODE_MAIN}`,
    ]);
    for (const value of ['mine.db', custom]) {
      const only = opencodeOnly(await discoverSessionFiles(sessionStores({ ...env, OPENCODE_DB: value }), roots));
      expect(only.map((f) => f.file)).toEqual([`${custom}#${OPENCODE_MAIN}`]);
    }
  });

  it('imports the session once, lists it with --client opencode, shows it, and hands it off', async () => {
    const data = path.join(home, 'xdg-data');
    await layOutOpencodeDb(path.join(data, 'opencode', 'opencode.db'), workspace, '/somewhere/else');
    const env = { ...storeEnv(home), XDG_DATA_HOME: data };
    const first = await runBin(['sessions', '--json', '--client', 'opencode'], workspace, env);
    expect(first.stderr).toBe('');
    const listed = JSON.parse(first.stdout) as { imported: { imported: number }; sessions: Array<Record<string, unknown>> };
    expect(listed.sessions).toEqual([
      expect.objectContaining({ client: 'opencode', session_id: OPENCODE_MAIN, prompts: 2, calls: 8, ending: 'normal', source: 'import' }),
    ]);
    const again = JSON.parse((await runBin(['sessions', 'import', '--json'], workspace, env)).stdout) as Record<string, number>;
    expect(again).toMatchObject({ imported: 0, unchanged: 1 });
    const show = await runBin(['sessions', 'show', 'ses_dda3fa'], workspace, env);
    expect(show.stdout).toContain(`opencode session ${OPENCODE_MAIN}`);
    expect(show.stdout).toMatch(/Failed: ls missing-dir \(exit 2\)/);
    expect(show.stdout).toContain('Open: Run the tests');
    const handoff = await runBin(['handoff', '--from', 'opencode', '--to', 'claude', '--print'], workspace, env);
    expect(handoff.stderr).toBe('');
    expect(handoff.stdout).toContain('--- Handoff from OpenCode to Claude Code (Baton) ---');
    expect(handoff.stdout).toContain('ls missing-dir');
    const json = await runBin(['handoff', '--from', 'opencode', '--to', 'opencode', '--json'], workspace, env);
    expect((JSON.parse(json.stdout) as { command: string[] }).command).toEqual(['opencode', 'run', '--']);
  });
});
