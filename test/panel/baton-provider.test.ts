import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { MemoryLedger } from '../../src/ledger/index.js';
import { loadPanelConfig, renderPanelPrompt, runPanel } from '../../src/panel/index.js';
import { createProvider } from '../../src/providers/index.js';
import { type FakeLlm, startFakeLlm } from './fake-llm-server.js';
import { writePanel } from './panel-fixture.js';

/** A real child-process agent: answers with what it found in its prompt. */
const AGENT_SCRIPT = `
let prompt = '';
process.stdin.on('data', (d) => (prompt += d));
process.stdin.on('end', () => {
  const earlier = /### Earlier answer\\n(.*)/.exec(prompt);
  const rules = prompt.includes('Do not repeat') ? 'with rules' : 'without rules';
  console.log('science agent saw: ' + (earlier ? earlier[1] : 'nothing') + ' (' + rules + ')');
});`;
const echoAgent = createProvider('echo', { type: 'command', command: [process.execPath, '-e', AGENT_SCRIPT] });

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** A two-agent panel: technique over HTTP, science on the Baton provider "echo". */
async function mixedPanel(): Promise<string> {
  llm = await startFakeLlm(() => ({ text: 'Rotate early.' }));
  const file = await writePanel(llm.baseURL, { agents: ['technique', 'science'] });
  const panel = JSON.parse(await readFile(file, 'utf8'));
  panel.agents[1].model = { provider: 'baton', name: 'echo' };
  await writeFile(file, JSON.stringify(panel));
  return file;
}

describe('panel agents on Baton providers', () => {
  it('runs a Baton provider agent with the earlier answers and instructions flattened into its prompt', async () => {
    const config = await loadPanelConfig(await mixedPanel());
    const ledger = new MemoryLedger();
    const tokens: string[] = [];
    const result = await runPanel(config, 'How do I improve my backhand?', {
      ledger,
      providers: { echo: echoAgent },
      onToken: (event) => tokens.push(`${event.agent}:${event.text}`),
    });

    expect(result.answers[1]).toMatchObject({
      agent: 'science',
      ok: true,
      text: 'science agent saw: Rotate early. (with rules)',
      contextMode: 'full',
      model: 'baton:echo',
    });
    expect(tokens).toContain('science:science agent saw: Rotate early. (with rules)');
    const dispatch = (await ledger.lastDispatches(result.taskId, 1))[0];
    expect(dispatch).toMatchObject({ provider: 'science', model: 'baton:echo', status: 'completed' });
  });

  it('refuses to start when a Baton provider named by the panel is not available', async () => {
    const config = await loadPanelConfig(await mixedPanel());
    const error = await runPanel(config, 'Q?', { ledger: new MemoryLedger() }).catch((e: unknown) => e);
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as Error).message).toContain('agents[1].model.name: no Baton provider "echo"');
    expect(llm?.requests).toHaveLength(0);
  });

  it('renders a flattened prompt with attribution kept', () => {
    expect(
      renderPanelPrompt('SYSTEM', [
        { role: 'assistant', content: 'A1' },
        { role: 'user', content: 'For context, tactics said: A2' },
        { role: 'user', content: 'Q?' },
      ]),
    ).toBe('SYSTEM\n\n## Earlier answers on this panel\n\n### Earlier answer\nA1\n\nFor context, tactics said: A2\n\n## Question\n\nQ?');
    expect(renderPanelPrompt('SYSTEM', [{ role: 'user', content: 'Q?' }])).toBe('SYSTEM\n\n## Question\n\nQ?');
  });
});
