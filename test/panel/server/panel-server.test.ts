import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../../src/ledger/index.js';
import {
  loadPanelConfig,
  type PanelAnswer,
  type PanelResult,
  type RunningPanelServer,
  startPanelServer,
} from '../../../src/panel/index.js';
import { type FakeLlm, startFakeLlm, systemOf } from '../fake-llm-server.js';
import { agentOf, writePanel } from '../panel-fixture.js';

let llm: FakeLlm;
let server: RunningPanelServer;
const ledger = new MemoryLedger();

beforeAll(async () => {
  llm = await startFakeLlm((request) => ({ text: `answer from ${agentOf(systemOf(request))}` }));
  const config = await loadPanelConfig(await writePanel(llm.baseURL, { agents: ['technique', 'science'] }));
  server = await startPanelServer({ config, runOptions: { ledger }, port: 0 });
});
afterAll(async () => {
  await server?.close();
  await llm?.close();
});

const post = (body: string, init: { path?: string; accept?: string } = {}) =>
  fetch(`${server.url}${init.path ?? '/panel'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.accept ? { accept: init.accept } : {}) },
    body,
  });

/** Parses a complete server-sent events body into [event, data] pairs. */
function parseSse(text: string): Array<[string, unknown]> {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      return [event, JSON.parse(data)];
    });
}

describe('baton serve: POST /panel', () => {
  it('binds to 127.0.0.1 by default', () => {
    expect(server.url.startsWith('http://127.0.0.1:')).toBe(true);
  });

  it('answers JSON with every agent answer, the later one given the earlier', async () => {
    const response = await post(JSON.stringify({ question: 'How do I serve faster?' }));
    expect(response.status).toBe(200);
    const result = (await response.json()) as PanelResult;
    expect(result.answers.map((a) => [a.agent, a.ok, a.text, a.contextMode])).toEqual([
      ['technique', true, 'answer from technique', 'none'],
      ['science', true, 'answer from science', 'full'],
    ]);
    expect((await ledger.getRecord('sessions', result.session))?.status).toBe('ended');
  });

  it('streams agent_start, token, agent_end and done events with Accept: text/event-stream', async () => {
    const response = await post(JSON.stringify({ question: 'How do I serve faster?' }), { accept: 'text/event-stream' });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await response.text());
    const names = events.map(([event]) => event);
    expect(names[0]).toBe('agent_start');
    expect(names.at(-1)).toBe('done');
    expect(names.filter((n) => n === 'agent_start')).toHaveLength(2);
    expect(names.filter((n) => n === 'agent_end')).toHaveLength(2);
    // Tokens of the first agent come between its start and end, and spell its answer.
    const firstEnd = names.indexOf('agent_end');
    const tokens = events.slice(1, firstEnd).map(([, data]) => (data as { text: string }).text);
    expect(tokens.join('')).toBe('answer from technique');
    expect((events[firstEnd]![1] as PanelAnswer).ok).toBe(true);
    expect((events.at(-1)![1] as PanelResult).answers).toHaveLength(2);
  });

  it('streams with ?stream=1 too', async () => {
    const response = await post(JSON.stringify({ question: 'Why?' }), { path: '/panel?stream=1' });
    expect(parseSse(await response.text()).at(-1)?.[0]).toBe('done');
  });

  it.each([
    ['not JSON', '{question:', /not valid JSON/],
    ['a missing question', '{}', /question/],
    ['an empty question', '{"question":"  "}', /question: must not be empty/],
    ['an unknown field', '{"question":"q","extra":1}', /extra/],
    ['a bad attribution', '{"question":"q","attribution":"system"}', /attribution/],
  ])('rejects %s with a clear 400', async (_, body, message) => {
    const before = llm.requests.length;
    const response = await post(body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe('INPUT_INVALID');
    expect(json.error.message).toMatch(message);
    expect(llm.requests.length).toBe(before);
  });

  it('answers 405 to GET /panel and 404 to unknown paths', async () => {
    expect((await fetch(`${server.url}/panel`)).status).toBe(405);
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });
});
