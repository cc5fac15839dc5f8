import { afterEach, describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { MemoryLedger } from '../../src/ledger/index.js';
import { loadPanelConfig, type PanelSessionData, runPanel } from '../../src/panel/index.js';
import { renderMetrics } from '../../src/observability/index.js';
import { MemorySummaryCache } from '../../src/summarize/index.js';
import { type ChatRequest, type FakeLlm, type Reply, startFakeLlm, systemOf } from './fake-llm-server.js';
import { type AgentName, agentOf, PROMPTS, writePanel } from './panel-fixture.js';

const QUESTION = 'How do I improve my backhand?';
const ANSWERS: Record<AgentName, string> = {
  technique: 'Technique: rotate your shoulders early and keep the racket face closed.',
  science: 'Science: build rotational power with medicine-ball throws twice a week.',
  tactics: 'Tactics: aim cross-court backhands deep to open the line.',
};
/** About 900 tokens: too long for a 700-token window once the reserve is counted. */
const LONG_ANSWER = Array.from(
  { length: 60 },
  (_, i) => `Point ${i}: the technique coach stresses grip, footwork and early preparation for drill ${i}.`,
).join('\n');

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** Starts the fake server answering each agent from `replies`, summaries from `summary`. */
async function serve(replies: Partial<Record<AgentName, Reply>>, summary: Reply = { text: 'short summary' }): Promise<FakeLlm> {
  llm = await startFakeLlm((request) => {
    const who = agentOf(systemOf(request));
    if (who === 'summary') return summary;
    return (who && replies[who]) ?? { text: who ? ANSWERS[who] : 'unknown agent' };
  });
  return llm;
}

const requestsOf = (server: FakeLlm, who: AgentName | 'summary'): ChatRequest[] =>
  server.requests.filter((r) => agentOf(systemOf(r)) === who);
const rolesOf = (request: ChatRequest | undefined) => request?.messages.map((m) => m.role);

describe('runPanel over real HTTP', () => {
  it('passes earlier answers as assistant messages, in order, between system prompt and question', async () => {
    const server = await serve({});
    const config = await loadPanelConfig(await writePanel(server.baseURL));
    const result = await runPanel(config, QUESTION, { ledger: new MemoryLedger() });

    expect(result.answers.map((a) => [a.agent, a.ok, a.contextMode])).toEqual([
      ['technique', true, 'none'],
      ['science', true, 'full'],
      ['tactics', true, 'full'],
    ]);
    const tactics = requestsOf(server, 'tactics')[0];
    expect(rolesOf(tactics)).toEqual(['system', 'assistant', 'assistant', 'user']);
    expect(tactics?.messages.slice(1).map((m) => m.content)).toEqual([ANSWERS.technique, ANSWERS.science, QUESTION]);
    expect(rolesOf(requestsOf(server, 'science')[0])).toEqual(['system', 'assistant', 'user']);
  });

  it('passes earlier answers as attributed user messages with attribution "user"', async () => {
    const server = await serve({});
    const config = await loadPanelConfig(await writePanel(server.baseURL, { panel: { attribution: 'user' } }));
    await runPanel(config, QUESTION, { ledger: new MemoryLedger() });

    const tactics = requestsOf(server, 'tactics')[0];
    expect(rolesOf(tactics)).toEqual(['system', 'user', 'user', 'user']);
    expect(tactics?.messages.slice(1).map((m) => m.content)).toEqual([
      `For context, technique said: ${ANSWERS.technique}`,
      `For context, science said: ${ANSWERS.science}`,
      QUESTION,
    ]);
  });

  it('adds duplicate-prevention instructions to later agents only; the first prompt is unchanged', async () => {
    const server = await serve({});
    await runPanel(await loadPanelConfig(await writePanel(server.baseURL)), QUESTION, { ledger: new MemoryLedger() });

    expect(systemOf(requestsOf(server, 'technique')[0]!)).toBe(PROMPTS.technique);
    for (const later of ['science', 'tactics'] as const) {
      const system = systemOf(requestsOf(server, later)[0]!);
      expect(system.startsWith(PROMPTS[later])).toBe(true);
      expect(system).toContain('Do not repeat');
      expect(system).toContain('Focus on your own area of expertise');
      expect(system).toContain('Complement');
      expect(system).toContain('acknowledge what was already covered');
    }
    expect(systemOf(requestsOf(server, 'tactics')[0]!)).toContain('(technique, science)');
  });

  it('never passes on a failed answer: the next agent answers without it', async () => {
    const server = await serve({ technique: { status: 500 } });
    const ledger = new MemoryLedger();
    const result = await runPanel(await loadPanelConfig(await writePanel(server.baseURL)), QUESTION, { ledger });

    expect(result.answers[0]).toMatchObject({ ok: false, outcome: 'overloaded' });
    const science = requestsOf(server, 'science')[0];
    expect(rolesOf(science)).toEqual(['system', 'user']);
    expect(systemOf(science!)).toBe(PROMPTS.science);
    expect(result.answers[1]).toMatchObject({ ok: true, contextMode: 'none', contextFrom: [] });
    const tactics = requestsOf(server, 'tactics')[0];
    expect(tactics?.messages.slice(1).map((m) => m.content)).toEqual([ANSWERS.science, QUESTION]);
    const dispatches = await ledger.lastDispatches(result.taskId, 10);
    expect(dispatches.find((d) => d.provider === 'technique')).toMatchObject({ status: 'failed', outcome: 'overloaded' });
  });

  it('treats a timed-out answer as failed and does not pass it on', async () => {
    const server = await serve({ technique: { text: 'too late', delayMs: 3_000 } });
    const file = await writePanel(server.baseURL, { agents: ['technique', 'science'] });
    const config = await loadPanelConfig(file);
    config.agents[0]!.timeoutMs = 200;
    const result = await runPanel(config, QUESTION, { ledger: new MemoryLedger() });

    expect(result.answers[0]).toMatchObject({ ok: false, outcome: 'timeout' });
    expect(rolesOf(requestsOf(server, 'science')[0])).toEqual(['system', 'user']);
  });

  it('records a panel session and one dispatch per answer in the ledger', async () => {
    const server = await serve({});
    const ledger = new MemoryLedger();
    const result = await runPanel(await loadPanelConfig(await writePanel(server.baseURL)), QUESTION, { ledger });

    const session = await ledger.getRecord<PanelSessionData>('sessions', result.session);
    expect(session).toMatchObject({ status: 'ended', taskId: `panel:${result.session}` });
    expect(session?.data).toMatchObject({
      kind: 'panel',
      question: QUESTION,
      agents: ['technique', 'science', 'tactics'],
      attribution: 'assistant',
    });
    const dispatches = (await ledger.lastDispatches(result.taskId, 10)).reverse();
    expect(dispatches.map((d) => [d.provider, d.status, d.outcome, d.model])).toEqual([
      ['technique', 'completed', 'ok', 'openai-compatible:qwen-plus'],
      ['science', 'completed', 'ok', 'openai-compatible:qwen-plus'],
      ['tactics', 'completed', 'ok', 'openai-compatible:qwen-plus'],
    ]);
    expect(dispatches[0]?.result).toBe(ANSWERS.technique);
    expect(dispatches[0]?.tokensOut).toBe(7);
  });

  it('masks secrets in what it writes to the ledger, and returns the answer unchanged', async () => {
    const leaky = 'Set GITHUB_TOKEN=ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ9876543 first.';
    const server = await serve({ technique: { text: leaky } });
    const ledger = new MemoryLedger();
    const file = await writePanel(server.baseURL, { agents: ['technique', 'science'] });
    const result = await runPanel(await loadPanelConfig(file), QUESTION, { ledger });

    expect(result.answers[0]?.text).toBe(leaky);
    const [science, technique] = await ledger.lastDispatches(result.taskId, 2);
    expect(technique?.result).not.toContain('ghp_');
    expect(technique?.result).toContain('[REDACTED:');
    expect(science?.injectedContext).toContain('[REDACTED:');
  });

  it('streams answers token by token when onToken is given', async () => {
    const server = await serve({});
    const tokens: string[] = [];
    const started: string[] = [];
    const result = await runPanel(await loadPanelConfig(await writePanel(server.baseURL, { agents: ['technique', 'science'] })), QUESTION, {
      ledger: new MemoryLedger(),
      onToken: (event) => tokens.push(`${event.agent}:${event.text}`),
      onAgentStart: (event) => started.push(`${event.agent}:${event.contextMode}`),
    });

    expect(server.requests.every((r) => r.stream === true)).toBe(true);
    expect(
      tokens
        .filter((t) => t.startsWith('technique:'))
        .map((t) => t.slice('technique:'.length))
        .join(''),
    ).toBe(ANSWERS.technique);
    expect(started).toEqual(['technique:none', 'science:full']);
    expect(rolesOf(requestsOf(server, 'science')[0])).toEqual(['system', 'assistant', 'user']);
    expect(result.answers[1]?.text).toBe(ANSWERS.science);
  });

  it('rejects an empty question with INPUT_INVALID', async () => {
    const server = await serve({});
    const config = await loadPanelConfig(await writePanel(server.baseURL));
    const error = await runPanel(config, '   ', { ledger: new MemoryLedger() }).catch((e: unknown) => e);
    expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe('runPanel on context overflow', () => {
  const overflowPanel = (baseURL: string) =>
    writePanel(baseURL, { agents: ['technique', 'science'], panel: { maxContextTokens: 700, maxOutputTokens: 100 } });

  it('replaces earlier answers by LLM summaries, and a repeat reuses the cached summary', async () => {
    const summary = 'Covered: grip, footwork, early preparation.';
    const server = await serve({ technique: { text: LONG_ANSWER } }, { text: summary });
    const config = await loadPanelConfig(await overflowPanel(server.baseURL));
    const cache = new MemorySummaryCache();
    const first = await runPanel(config, QUESTION, { ledger: new MemoryLedger(), summaryCache: cache });

    const summaryRequests = requestsOf(server, 'summary');
    expect(summaryRequests).toHaveLength(1);
    expect(summaryRequests[0]?.messages.at(-1)?.content).toContain(LONG_ANSWER);
    const science = requestsOf(server, 'science')[0];
    expect(rolesOf(science)).toEqual(['system', 'assistant', 'user']);
    expect(science?.messages[1]?.content).toBe(`[Summary of technique's answer]\n${summary}`);
    expect(first.answers[1]).toMatchObject({ ok: true, contextMode: 'summaries', contextFrom: ['technique'] });

    const second = await runPanel(config, QUESTION, { ledger: new MemoryLedger(), summaryCache: cache });
    expect(requestsOf(server, 'summary')).toHaveLength(1);
    expect(requestsOf(server, 'science')[1]?.messages[1]?.content).toBe(`[Summary of technique's answer]\n${summary}`);
    expect(second.answers[1]?.contextMode).toBe('summaries');
    const metrics = await renderMetrics();
    expect(metrics).toMatch(/baton_panel_contexts_passed_total\{mode="summaries"\} 2/);
    expect(metrics).toMatch(/baton_summary_cache_hits_total [1-9]/);
    expect(metrics).toMatch(/baton_summaries_generated_total\{summarizer="llm"\} 1/);
  });

  it('falls back to no context when summary generation fails, and the panel keeps answering', async () => {
    const server = await serve({ technique: { text: LONG_ANSWER } }, { status: 500 });
    const config = await loadPanelConfig(await overflowPanel(server.baseURL));
    const result = await runPanel(config, QUESTION, { ledger: new MemoryLedger(), summaryCache: new MemorySummaryCache() });

    expect(requestsOf(server, 'summary')).toHaveLength(1);
    const science = requestsOf(server, 'science')[0];
    expect(rolesOf(science)).toEqual(['system', 'user']);
    expect(systemOf(science!)).toBe(PROMPTS.science);
    expect(result.answers[1]).toMatchObject({ ok: true, contextMode: 'none', contextFallback: 'summary_failed' });
  });

  it('falls back to no context when the summaries are still too long', async () => {
    const server = await serve({ technique: { text: LONG_ANSWER } }, { text: LONG_ANSWER.slice(0, Math.floor(LONG_ANSWER.length * 0.9)) });
    const config = await loadPanelConfig(await overflowPanel(server.baseURL));
    const result = await runPanel(config, QUESTION, { ledger: new MemoryLedger(), summaryCache: new MemorySummaryCache() });

    expect(requestsOf(server, 'summary')).toHaveLength(1);
    expect(rolesOf(requestsOf(server, 'science')[0])).toEqual(['system', 'user']);
    expect(result.answers[1]).toMatchObject({ ok: true, contextMode: 'none', contextFallback: 'summaries_too_long' });
    expect(await renderMetrics()).toMatch(/baton_panel_context_fallbacks_total\{reason="summaries_too_long"\} [1-9]/);
  });
});
