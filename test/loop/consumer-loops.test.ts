/**
 * The framework loops as a user runs them: Baton installed from the packed tarball into a project
 * of its own beside the framework packages, each program compiled by that project's tsc
 * (`skipLibCheck: false`) and run with `--unhandled-rejections=strict` against a local server that
 * answers a 429 (retry-after), then a 500, then 200. And a project without the optional peers: the
 * package loads, and the LangChain adapter names what to install.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPrograms, type ConsumerProject, consumerProject } from '../helpers/consumer-project.js';
import { FRAMEWORK_PACKAGES } from '../helpers/framework-packages.js';
import { type ChatServer, type ScriptedReply, startChatServer } from './helpers/chat-server.js';

const INSTALL_TIMEOUT_MS = 1_200_000;
const PROGRAM_TIMEOUT_MS = 600_000;
/** The versions this repository tests with (its lockfile), so the install comes from the npm cache. */
const FRAMEWORKS = FRAMEWORK_PACKAGES;

const read = (n: number): ScriptedReply => ({ toolCalls: [{ id: `call_${n}`, name: 'read_file', args: { path: `src/part_${n}.py` } }] });
const SCRIPT: ScriptedReply[] = [
  read(1),
  read(2),
  read(3),
  { status: 429, error: 'RESOURCE_EXHAUSTED: rate limit', headers: { 'retry-after': '1' } },
  { status: 500, error: 'INTERNAL: backend error' },
  { text: 'The bug is in part 3.' },
];

/** What every program shares: a manager, a tool, and the retries it saw, printed as JSON at the end. */
const COMMON = `
import { type ContextAdapterOptions, createContextManager } from 'agent-baton';
export const baseURL = process.env.MODEL_BASE_URL ?? '';
export const retries: { attempt: number; delayMs: number }[] = [];
export const options: ContextAdapterOptions = { initialDelayMs: 20, onRetry: ({ attempt, delayMs }) => void retries.push({ attempt, delayMs }) };
export const manager = await createContextManager({ limitTokens: 16_000 });
export const fileText = (path: string) => Array.from({ length: 40 }, (_, i) => \`\${path}:\${i + 1}: value_\${i} = compute_\${i}()\`).join('\\n');
export const SYSTEM = 'You are a careful coding agent.';
export const TASK = 'Find the bug in src/ and explain it.';
`;

const PROGRAMS: Record<string, string> = {
  'common.ts': COMMON,
  'ai-sdk.ts': `
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { batonContextMiddleware } from 'agent-baton';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { z } from 'zod';
import { baseURL, fileText, manager, options, retries, SYSTEM, TASK } from './common.js';

const base = createOpenAICompatible({ name: 'local', baseURL, apiKey: 'test' }).chatModel('local-model');
const model = wrapLanguageModel({ model: base, middleware: batonContextMiddleware(manager, options) });
const read_file = tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => fileText(path) });
const result = await generateText({ model, system: SYSTEM, prompt: TASK, tools: { read_file }, stopWhen: stepCountIs(10) });
console.log(JSON.stringify({ answer: result.text, retries }));
`,
  'langchain.ts': `
import { ChatOpenAI } from '@langchain/openai';
import { batonLangChainMiddleware } from 'agent-baton';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import { baseURL, fileText, manager, options, retries, SYSTEM, TASK } from './common.js';

const readFile = tool(async ({ path }: { path: string }) => fileText(path), { name: 'read_file', description: 'Read a file', schema: z.object({ path: z.string() }) });
const agent = createAgent({
  model: new ChatOpenAI({ model: 'local-model', apiKey: 'test', configuration: { baseURL } }),
  tools: [readFile],
  systemPrompt: SYSTEM,
  middleware: [await batonLangChainMiddleware(manager, options)],
});
const result = await agent.invoke({ messages: [{ role: 'user', content: TASK }] });
console.log(JSON.stringify({ answer: result.messages.at(-1)?.text, retries }));
`,
  'agents.ts': `
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import { batonAgentsModel } from 'agent-baton';
import OpenAI from 'openai';
import { z } from 'zod';
import { baseURL, fileText, manager, options, retries, SYSTEM, TASK } from './common.js';

setTracingDisabled(true);
const model = batonAgentsModel(manager, new OpenAIChatCompletionsModel(new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 }), 'local-model'), options);
const readFile = tool({ name: 'read_file', description: 'Read a file', parameters: z.object({ path: z.string() }), execute: async ({ path }) => fileText(path) });
const result = await run(new Agent({ name: 'coder', instructions: SYSTEM, tools: [readFile], model }), TASK, { maxTurns: 10 });
console.log(JSON.stringify({ answer: result.finalOutput, retries }));
`,
};

/** Misuse, each caught: the program prints every error's code and message. */
const MISUSE = `
import { batonContextMiddleware, batonLangChainMiddleware, createContextManager, isBatonError } from 'agent-baton';

const errors: string[] = [];
async function attempt(run: () => unknown): Promise<void> {
  try {
    await run();
    errors.push('no error');
  } catch (error) {
    errors.push(isBatonError(error) ? \`\${error.code} \${error.message}\` : String(error));
  }
}
await attempt(() => createContextManager({ limitToken: 8000 } as never));
await attempt(() => createContextManager({ limitTokens: 600 }));
const manager = await createContextManager({ limitTokens: 2048 });
await attempt(() => batonContextMiddleware(manager, { maxRetrys: 1 } as never));
await attempt(() => batonLangChainMiddleware(manager));
console.log(JSON.stringify({ errors, budget: manager.options.budget }));
`;

/** stderr's lines but the one warning a manager gives without the optional tree-sitter packages (not installed here). */
function stderrBesidesSnippetsWarning(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !line.includes('continuing without code snippets'));
}

function expectLadder(server: ChatServer): void {
  expect(server.requests).toHaveLength(6);
  const [failed, retry1, retry2] = server.requests.slice(3, 6).map((r) => r.size);
  expect(retry1!.messages).toBeLessThan(failed!.messages);
  expect(retry2!.messages).toBeLessThan(retry1!.messages);
  expect(retry1!.chars).toBeLessThan(failed!.chars);
  expect(retry2!.chars).toBeLessThan(retry1!.chars);
}

describe('the framework loops in a consumer project', { timeout: PROGRAM_TIMEOUT_MS }, () => {
  let project: ConsumerProject;
  let programs: BuiltPrograms;
  let server: ChatServer | undefined;
  beforeAll(async () => {
    project = await consumerProject({ packages: FRAMEWORKS });
    programs = await project.build(PROGRAMS, { timeoutMs: PROGRAM_TIMEOUT_MS });
  }, INSTALL_TIMEOUT_MS);
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('compiles every program with skipLibCheck false', () => {
    expect(programs.compile, programs.compile?.stdout).toMatchObject({ code: 0, timedOut: false });
  });

  for (const entry of ['ai-sdk.ts', 'langchain.ts', 'agents.ts']) {
    it(`${entry}: a 429 (retry-after 1 s) then a 500 are retried with a smaller context, and the answer arrives`, async () => {
      server = await startChatServer(SCRIPT);
      const result = await programs.run(entry, { env: { MODEL_BASE_URL: server.baseURL } });
      expect(stderrBesidesSnippetsWarning(result.stderr)).toEqual([]);
      expect(result).toMatchObject({ stage: 'run', code: 0 });
      const output = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
      expect(output.answer).toBe('The bug is in part 3.');
      // The 429's retry-after (1 s), then the backoff from initialDelayMs (20 ms, ×2, jittered).
      expect(output.retries.map((r: { attempt: number }) => r.attempt)).toEqual([1, 2]);
      expect(output.retries[0].delayMs).toBe(1000);
      expect(output.retries[1].delayMs).toBeLessThan(100);
      expectLadder(server);
    });
  }
});

describe('a consumer project without the optional framework packages', { timeout: PROGRAM_TIMEOUT_MS }, () => {
  let project: ConsumerProject;
  beforeAll(async () => {
    project = await consumerProject();
  }, INSTALL_TIMEOUT_MS);

  it('loads Baton, names each misuse, and says which package the LangChain adapter needs', async () => {
    const result = await project.run({ 'main.ts': MISUSE }, { entry: 'main.ts', timeoutMs: PROGRAM_TIMEOUT_MS });
    expect(stderrBesidesSnippetsWarning(result.stderr)).toEqual([]);
    expect(result).toMatchObject({ stage: 'run', code: 0 });
    const { errors, budget } = JSON.parse(result.stdout.trim());
    expect(budget).toBe(1536);
    expect(errors).toEqual([
      'CONFIG_INVALID createContextManager options: unknown key "limitToken" (did you mean "limitTokens"?)',
      'CONFIG_INVALID ContextManager options: limitTokens: limitTokens (600) less reserveTokens (150) leaves a prompt budget of 450 tokens; the smallest that works is 512: raise limitTokens to at least 682 or set reserveTokens to at most 88',
      'CONFIG_INVALID batonContextMiddleware: options: unknown key "maxRetrys" (did you mean "maxRetries"?)',
      'DEPENDENCY_MISSING batonLangChainMiddleware (LangChain.js agents) needs the optional packages langchain and @langchain/core: run npm install langchain @langchain/core',
    ]);
  });
});
