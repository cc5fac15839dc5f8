import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../../src/ledger/index.js';
import { loadPanelConfig, type PanelSessionData, type RunningPanelServer, startPanelServer } from '../../../src/panel/index.js';
import { type FakeLlm, startFakeLlm, systemOf } from '../fake-llm-server.js';
import { agentOf, writePanel } from '../panel-fixture.js';

let llm: FakeLlm | undefined;
let server: RunningPanelServer | undefined;
afterEach(async () => {
  await server?.close();
  await llm?.close();
});

describe('baton serve: a client that disconnects', () => {
  it('cancels the panel: the running agent is recorded as interrupted and later agents never run', async () => {
    // The first agent would take far longer than the test; the disconnect must end it.
    llm = await startFakeLlm((request) => ({ text: 'slow answer', delayMs: agentOf(systemOf(request)) === 'technique' ? 60_000 : 0 }));
    const ledger = new MemoryLedger();
    const config = await loadPanelConfig(await writePanel(llm.baseURL, { agents: ['technique', 'science'] }));
    server = await startPanelServer({ config, runOptions: { ledger }, port: 0 });

    const client = new AbortController();
    const response = await fetch(`${server.url}/panel?stream=1`, {
      method: 'POST',
      body: JSON.stringify({ question: 'Q?' }),
      signal: client.signal,
    });
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('event: agent_start')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    client.abort();

    await expect
      .poll(async () => (await ledger.listRecords<PanelSessionData>('sessions')).items[0]?.status, { timeout: 10_000 })
      .toBe('ended');
    const session = (await ledger.listRecords<PanelSessionData>('sessions')).items[0]!;
    expect(session.data.answers).toEqual([expect.objectContaining({ agent: 'technique', ok: false, outcome: 'interrupted' })]);
    expect(llm.requests.filter((r) => agentOf(systemOf(r)) === 'science')).toHaveLength(0);
  });
});
