/** runPanel and the panel server from code: an unknown option or a value of the wrong type is named before any agent runs or the server listens. */
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { createPanelServer, type PanelConfig, runPanel, startPanelServer } from '../../src/panel/index.js';

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
