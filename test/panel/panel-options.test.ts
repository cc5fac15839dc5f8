/** runPanel and the panel server from code: an unknown option or a value of the wrong type is named before any agent runs or the server listens. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import {
  buildAgentMessages,
  createPanelServer,
  fitPanelContext,
  loadPanelConfig,
  type PanelConfig,
  resolvePanelConfig,
  runPanel,
  startPanelServer,
} from '../../src/panel/index.js';
import { writePanel } from './panel-fixture.js';

const config = { agents: [{ name: 'a' }] } as unknown as PanelConfig;

describe('panel options', () => {
  it('runPanel names a misspelled option with the spelling expected, and a missing ledger', async () => {
    const ledger = new MemoryLedger();
    await expect(runPanel(config, 'Why?', { ledger, onAgentFinish: () => {} } as never)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/^runPanel: options: unknown key "onAgentFinish" \(expected one of: .*onAgentEnd/),
    });
    await expect(runPanel(config, 'Why?', { ledgr: ledger } as never)).rejects.toThrow(
      'runPanel is invalid:\n  options.ledger: expected a Ledger (from openLedger or new MemoryLedger())\n  options: unknown key "ledgr" (did you mean "ledger"?)',
    );
    await expect(runPanel({ agent: [] } as never, 'Why?', { ledger })).rejects.toThrow(
      /^runPanel: config: unknown|^runPanel.*config\.agents/,
    );
  });

  it('createPanelServer and startPanelServer name an unknown option before listening', async () => {
    const ledger = new MemoryLedger();
    expect(() => createPanelServer({ config, runOptions: { ledger }, port: 8080 } as never)).toThrow(
      'createPanelServer options: unknown key "port"',
    );
    await expect(startPanelServer({ config, runOptions: { ledger }, hostname: '0.0.0.0' } as never)).rejects.toThrow(
      /^startPanelServer options: unknown key "hostname" \(expected one of: .*host/,
    );
  });
});

describe('panel helpers from code', () => {
  it('buildAgentMessages and fitPanelContext are pure builders that trust their types', () => {
    expect(buildAgentMessages({ systemPrompt: 's', question: 'q', context: [] }).messages).toEqual([{ role: 'user', content: 'q' }]);
    expect(
      fitPanelContext({ system: 's', question: 'q', answers: [], attribution: 'user', limitTokens: 2048, reserveTokens: 256 }).mode,
    ).toBe('none');
  });

  it('loadPanelConfig and resolvePanelConfig name an unknown option', async () => {
    await expect(loadPanelConfig('panel.json', { dir: '/tmp' } as never)).rejects.toThrow(
      'loadPanelConfig options: unknown key "dir" (expected one of: cwd, env)',
    );
    await expect(resolvePanelConfig({ agents: [] }, { path: '/tmp/panel.json' } as never)).rejects.toThrow(
      /^resolvePanelConfig options is invalid:\n {2}file: .*\n {2}unknown key "path"/,
    );
  });

  it('loadPanelConfig and resolvePanelConfig take process.env itself (what baton panel and serve pass)', async () => {
    const file = await writePanel('http://127.0.0.1:1/v1', { agents: ['technique'] });
    const loaded = await loadPanelConfig(file, { env: process.env });
    expect(loaded.agents.map((a) => a.name)).toEqual(['technique']);
    const resolved = await resolvePanelConfig(JSON.parse(await readFile(file, 'utf8')), { file, env: process.env });
    expect(resolved.agents.map((a) => a.name)).toEqual(['technique']);
    await expect(loadPanelConfig(file, { env: { PATH: 1 } } as never)).rejects.toThrow(
      'loadPanelConfig options: env: expected an environment: an object of strings (process.env)',
    );
  });
});
