import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, callTools, clientTools, fail, type ModelServer, type Respond, say, startModelServer } from './model-server/index.js';

// The scripted model server on its own, over plain HTTP: the wire shapes the four real CLIs do not
// all exercise (non-streaming answers, parallel calls, failures, side requests, script errors).
// agent-clis-suite.ts (agent-clis-NAME.test.ts) proves the same server inside the real clients.

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(respond: Respond, scriptSideRequests = false): Promise<ModelServer> {
  server = await startModelServer({ respond, scriptSideRequests });
  return server;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const url = (server as ModelServer).url;
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, parsed (the `[DONE]` marker kept as a string). */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

describe('the scripted model server', () => {
  it('reads an Anthropic conversation into the view: system, prompt, tool calls and results with exit codes', async () => {
    const seen = await start(() => say('done'));
    const response = await post('/v1/messages', {
      model: 'claude-x',
      system: [{ type: 'text', text: 'You are Claude.' }],
      tools: [{ name: 'Bash', description: 'run', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: '--- RETRY CONTEXT ---\nfix it' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'false' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Exit code 1', is_error: true }] },
      ],
    });
    expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' });
    const [view] = seen.turns;
    expect(view).toMatchObject({ api: 'anthropic', model: 'claude-x', system: 'You are Claude.', prompt: '--- RETRY CONTEXT ---\nfix it' });
    expect(view?.toolCalls).toEqual([{ id: 't1', name: 'Bash', args: { command: 'false' } }]);
    expect(view?.toolResults).toEqual([{ callId: 't1', name: 'Bash', text: 'Exit code 1', isError: true, exitCode: 1 }]);
  });

  it('streams parallel Anthropic tool calls as content blocks with input_json deltas', async () => {
    await start(() => callTools(callTool('Write', { file_path: 'a', content: 'x' }), clientTools('claude').runShell('ls')));
    const response = await post('/v1/messages', {
      stream: true,
      tools: [{ name: 'Write' }, { name: 'Bash' }],
      messages: [{ role: 'user', content: 'go' }],
    });
    const sent = (await events(response)) as Array<{ type: string; content_block?: { name?: string }; delta?: { partial_json?: string } }>;
    expect(sent.filter((e) => e.type === 'content_block_start').map((e) => e.content_block?.name)).toEqual(['Write', 'Bash']);
    expect(sent.find((e) => e.delta?.partial_json)?.delta?.partial_json).toBe('{"file_path":"a","content":"x"}');
    expect(sent.at(-2)).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'tool_use' } });
  });

  it('answers Gemini JSON-mode side requests from their schema without running the script', async () => {
    const seen = await start(() => {
      throw new Error('side requests must not reach the script');
    });
    const response = await post('/v1beta/models/gemini-x:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'route me' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'OBJECT',
          properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } },
        },
      },
    });
    const body = (await response.json()) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
    expect(JSON.parse(body.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({ complexity_reasoning: 'scripted', complexity_score: 1 });
    expect(seen.turns).toEqual([]);
    expect(seen.requests[0]?.view?.side).toBe(true);
    expect(seen.problems).toEqual([]);
  });

  it('sends Codex apply_patch as a custom tool call, with the namespace of a namespaced function', async () => {
    await start((view) =>
      view.toolResults.length === 0 ? clientTools('codex').writeFile('a.txt', 'one\ntwo\n') : callTool('close_agent', { target: 'x' }),
    );
    const tools = [
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } },
      { type: 'namespace', name: 'multi_agent_v1', tools: [{ type: 'function', name: 'close_agent', parameters: {} }] },
    ];
    const first = await events(await post('/v1/responses', { stream: true, tools, input: [{ role: 'user', content: 'go' }] }));
    expect(first.map((e) => (e as { type: string }).type)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect((first[2] as { item: unknown }).item).toMatchObject({
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** End Patch\n',
    });
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '…' },
      { type: 'custom_tool_call_output', call_id: 'c1', output: 'Exit code: 0\nOutput:\nSuccess.' },
    ];
    const second = (await (await post('/v1/responses', { tools, input })).json()) as { output: unknown[] };
    expect(second.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'close_agent', namespace: 'multi_agent_v1' })]);
    expect(server?.turns[1]?.toolResults[0]).toMatchObject({ name: 'apply_patch', isError: false });
  });

  it("runs Codex's client-side tool search, then offers the tools it loaded", async () => {
    const seen = await start((view) =>
      view.toolResults.length === 0 ? callTool('tool_search', { query: 'baton' }) : callTool('refresh_context'),
    );
    const first = (await (await post('/v1/responses', { tools: [{ type: 'tool_search', execution: 'client' }], input: 'go' })).json()) as {
      output: unknown[];
    };
    expect(first.output).toEqual([
      expect.objectContaining({ type: 'tool_search_call', execution: 'client', arguments: { query: 'baton' }, call_id: 'call_0_0' }),
    ]);
    const loaded = { type: 'namespace', name: 'mcp__baton', tools: [{ type: 'function', name: 'refresh_context', parameters: {} }] };
    const input = [
      { type: 'message', role: 'user', content: 'go' },
      { type: 'tool_search_call', call_id: 'call_0_0', execution: 'client', arguments: { query: 'baton' } },
      { type: 'tool_search_output', call_id: 'call_0_0', execution: 'client', tools: [loaded] },
    ];
    const second = (await (await post('/v1/responses', { tools: [{ type: 'tool_search' }], input })).json()) as { output: unknown[] };
    expect(second.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'refresh_context', namespace: 'mcp__baton' })]);
    expect(seen.turns[1]?.toolResults).toEqual([
      { callId: 'call_0_0', name: 'tool_search', text: 'mcp__baton.refresh_context', isError: false },
    ]);
  });

  it('streams chat completion tool calls, usage and [DONE]; reads gzip bodies', async () => {
    const seen = await start(() => clientTools('copilot').runShell('node --test'));
    const body = gzipSync(
      JSON.stringify({
        stream: true,
        tools: [{ type: 'function', function: { name: 'bash' } }],
        messages: [{ role: 'user', content: 'go' }],
      }),
    );
    const response = await fetch(`${seen.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-initiator': 'user' },
      body,
    });
    const sent = await events(response);
    expect(sent.at(-1)).toBe('[DONE]');
    expect(sent).toContainEqual(expect.objectContaining({ choices: [], usage: expect.objectContaining({ total_tokens: 120 }) }));
    const calls = sent.flatMap(
      (e) => (e as { choices?: Array<{ delta: { tool_calls?: unknown[] } }> }).choices?.[0]?.delta.tool_calls ?? [],
    );
    expect(calls).toEqual([
      expect.objectContaining({ function: { name: 'bash', arguments: expect.stringContaining('"command":"node --test"') } }),
    ]);
    expect(seen.turns[0]?.client).toBe('copilot');
  });

  it('fails a request with the API-shaped error, status and retry-after the script asked for', async () => {
    await start(() => fail(429, { retryAfter: 7, message: 'slow down' }));
    const anthropic = await post('/v1/messages', { tools: [{ name: 'x' }], messages: [{ role: 'user', content: 'go' }] });
    expect(anthropic.status).toBe(429);
    expect(anthropic.headers.get('retry-after')).toBe('7');
    expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
    const gemini = await post('/v1beta/models/g:streamGenerateContent', {
      tools: [{ functionDeclarations: [{ name: 'x' }] }],
      contents: [],
    });
    expect(await gemini.json()).toEqual({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } });
    const openai = await post('/v1/responses', { tools: [{ type: 'function', name: 'x' }], input: 'go' });
    expect(await openai.json()).toMatchObject({ error: { type: 'rate_limit_exceeded', message: 'slow down' } });
  });

  it('answers a tool the client did not offer with a 400 and reports it as a problem', async () => {
    const seen = await start(() => callTool('no_such_tool'));
    const response = await post('/v1/messages', { tools: [{ name: 'Write' }], messages: [{ role: 'user', content: 'go' }] });
    expect(response.status).toBe(400);
    expect(seen.problems).toEqual([expect.stringContaining('no_such_tool, which the client did not offer (offered: Write)')]);
  });

  it('matches a logical tool name against a client prefix, and logs every request with its raw body', async () => {
    const seen = await start(() => callTool('refresh_context', { format: 'minimal' }));
    const response = await post('/v1/messages', {
      tools: [{ name: 'mcp__baton__refresh_context' }],
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(await response.json()).toMatchObject({
      content: [{ type: 'tool_use', name: 'mcp__baton__refresh_context', input: { format: 'minimal' } }],
    });
    await fetch(`${seen.url}/v1/models`);
    expect(seen.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v1/messages 200', 'GET /v1/models 200']);
    expect(seen.requests[0]?.bodyText).toContain('mcp__baton__refresh_context');
  });

  it("matches Copilot CLI's server-tool names (baton-refresh_context)", async () => {
    await start(() => callTool('refresh_context', { format: 'minimal' }));
    const response = await post('/v1/chat/completions', {
      tools: [
        { type: 'function', function: { name: 'bash' } },
        { type: 'function', function: { name: 'baton-refresh_context' } },
      ],
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(await response.json()).toMatchObject({
      choices: [{ message: { tool_calls: [{ function: { name: 'baton-refresh_context', arguments: '{"format":"minimal"}' } }] } }],
    });
  });
});
