/**
 * A small coding-agent loop with Baton's managed context, over any OpenAI-compatible endpoint.
 *
 *   BATON_EXAMPLE_BASE_URL=http://127.0.0.1:11434/v1 BATON_EXAMPLE_MODEL=qwen2.5-coder \
 *     node --import tsx examples/loop/agent-loop.ts "Make the failing test in tests/ pass"
 *
 * The loop records every turn in a ContextManager, sends the assembled context (system first,
 * the task, past turns with older tool outputs masked, relevant code, the loop state), and on
 * 429/5xx or a context overflow retries with a smaller context. Tools: read_file, list_dir, run
 * (a shell command). The model call throws on a failed response with its status and headers:
 * `fetch` resolves on a 429, and a call that does not throw is never retried.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { callWithContextRetry, createContextManager, type OpenAIChatMessage, type ToolCall, toOpenAIMessages } from 'agent-baton';

const baseURL = process.env.BATON_EXAMPLE_BASE_URL ?? 'http://127.0.0.1:11434/v1';
const model = process.env.BATON_EXAMPLE_MODEL ?? 'qwen2.5-coder';
const task = process.argv.slice(2).join(' ') || 'List the files here and say what this project does.';
const MAX_STEPS = 20;

const TOOLS = [
  {
    name: 'read_file',
    description: 'Read a text file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'list_dir',
    description: 'List a directory',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'run',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

interface ChatReply {
  choices: { message: OpenAIChatMessage & { role: 'assistant' } }[];
}

async function chat(messages: OpenAIChatMessage[]): Promise<ChatReply> {
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.BATON_EXAMPLE_API_KEY ?? 'none'}` },
    body: JSON.stringify({ model, messages, tools: TOOLS.map((t) => ({ type: 'function', function: t })) }),
  });
  // fetch resolves on a 429 or 500: throw, with the status and headers (Retry-After) on the error.
  if (!response.ok) {
    throw Object.assign(new Error(`${response.status} ${await response.text()}`), { status: response.status, headers: response.headers });
  }
  return (await response.json()) as ChatReply;
}

async function runTool(call: ToolCall): Promise<{ text: string; exitCode?: number }> {
  const arg = String(call.args.path ?? call.args.command ?? '');
  try {
    if (call.name === 'read_file') return { text: await readFile(arg, 'utf8') };
    if (call.name === 'list_dir')
      return {
        text: (await readdir(arg || '.', { withFileTypes: true })).map((d) => (d.isDirectory() ? `${d.name}/` : d.name)).join('\n'),
      };
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', arg], { maxBuffer: 8 * 1024 * 1024 });
    return { text: `${stdout}${stderr}`, exitCode: 0 };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number; message: string };
    return { text: `${e.stdout ?? ''}${e.stderr ?? e.message}`, exitCode: typeof e.code === 'number' ? e.code : 1 };
  }
}

const manager = await createContextManager({ model });
manager.record({ kind: 'system', text: 'You are a careful coding agent. Use the tools; answer when done.' });
manager.record({ kind: 'user', text: task });

for (let step = 0; step < MAX_STEPS; step += 1) {
  const reply = await callWithContextRetry(manager, (context) => chat(toOpenAIMessages(context.messages)), {
    onRetry: ({ attempt, delayMs }) => console.error(`retry ${attempt} in ${delayMs} ms with a smaller context`),
  });
  const message = reply.choices[0]?.message;
  const toolCalls: ToolCall[] = (message?.tool_calls ?? []).map((c) => ({
    id: c.id,
    name: c.function.name,
    args: JSON.parse(c.function.arguments || '{}') as Record<string, unknown>,
  }));
  manager.record({ kind: 'assistant', text: message?.content ?? '', toolCalls });
  if (toolCalls.length === 0) {
    console.log(message?.content ?? '');
    break;
  }
  for (const call of toolCalls) {
    const result = await runTool(call);
    manager.record({
      kind: 'tool',
      callId: call.id,
      name: call.name,
      text: result.text,
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    });
  }
}
