import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { Agent, OpenAIChatCompletionsModel, run as runAgent, setTracingDisabled, tool as agentsTool } from '@openai/agents';
import { generateText, type LanguageModelMiddleware, stepCountIs, tool as aiTool, wrapLanguageModel } from 'ai';
import { createAgent, createMiddleware, tool as lcTool } from 'langchain';
import OpenAI from 'openai';
import { z } from 'zod';
import { batonAgentsModel, batonContextMiddleware, batonLangChainMiddleware, type ContextManager } from '../src/index.js';
import type { RecordedLoop } from './adapters-trajectory.js';

export type Mode = 'bare' | 'baton';
export type Framework = 'ai-sdk' | 'langchain' | 'openai-agents';

/** What one run of the loop took: its wall time, and per model call what lay between the two timers. */
export interface RunSample {
  wallMs: number;
  /** The loop process's CPU time for the run (the server runs in another process). */
  cpuMs: number;
  /** Per model call: the outer timer's wall time less the inner one's (the model call itself). */
  betweenMs: number[];
  /** The same in the process's CPU time, which a busy machine's other processes do not inflate. */
  betweenCpuMs: number[];
  calls: number;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Timers around a model call: `outer` wraps what Baton adds and the call, `inner` the call alone. */
class CallTimer {
  readonly betweenMs: number[] = [];
  readonly betweenCpuMs: number[] = [];
  private innerMs = 0;
  private innerCpuMs = 0;
  async outer<T>(call: () => Promise<T>): Promise<T> {
    this.innerMs = 0;
    this.innerCpuMs = 0;
    const [wall, cpu] = [performance.now(), cpuMs()];
    const result = await call();
    this.betweenMs.push(performance.now() - wall - this.innerMs);
    this.betweenCpuMs.push(cpuMs() - cpu - this.innerCpuMs);
    return result;
  }
  async inner<T>(call: () => Promise<T>): Promise<T> {
    const [wall, cpu] = [performance.now(), cpuMs()];
    const result = await call();
    this.innerMs += performance.now() - wall;
    this.innerCpuMs += cpuMs() - cpu;
    return result;
  }
}

const SCHEMA = z.object({ command: z.string().describe('A shell command') });

/** The tool that answers each action with the output the recorded run got, in order. */
function observationsOf(loop: RecordedLoop): () => string {
  let next = 0;
  return () => loop.observations[next++] ?? '';
}

/** Runs the recorded loop once with `framework`, with or without Baton (`manager` given when with). */
export async function runLoop(framework: Framework, loop: RecordedLoop, baseURL: string, manager?: ContextManager): Promise<RunSample> {
  const timer = new CallTimer();
  const [started, startedCpu] = [performance.now(), cpuMs()];
  if (framework === 'ai-sdk') await runAiSdk(loop, baseURL, timer, manager);
  else if (framework === 'langchain') await runLangChain(loop, baseURL, timer, manager);
  else await runOpenAIAgents(loop, baseURL, timer, manager);
  return {
    wallMs: performance.now() - started,
    cpuMs: cpuMs() - startedCpu,
    betweenMs: timer.betweenMs,
    betweenCpuMs: timer.betweenCpuMs,
    calls: timer.betweenMs.length,
  };
}

async function runAiSdk(loop: RecordedLoop, baseURL: string, timer: CallTimer, manager?: ContextManager): Promise<void> {
  const base = createOpenAICompatible({ name: 'bench', baseURL, apiKey: 'bench' }).chatModel('bench-model');
  const timing = (at: 'outer' | 'inner'): LanguageModelMiddleware => ({
    specificationVersion: 'v3',
    wrapGenerate: ({ doGenerate }) => timer[at](async () => doGenerate()),
  });
  const middleware = manager ? [timing('outer'), batonContextMiddleware(manager), timing('inner')] : [timing('outer'), timing('inner')];
  const observation = observationsOf(loop);
  const run = aiTool({ description: 'Run a shell command', inputSchema: SCHEMA, execute: async () => observation() });
  await generateText({
    model: wrapLanguageModel({ model: base, middleware }),
    system: loop.system,
    prompt: loop.task,
    tools: { run },
    stopWhen: stepCountIs(loop.steps.length + 1),
  });
}

async function runLangChain(loop: RecordedLoop, baseURL: string, timer: CallTimer, manager?: ContextManager): Promise<void> {
  const timing = (at: 'outer' | 'inner') =>
    createMiddleware({ name: `timer-${at}`, wrapModelCall: (request, handler) => timer[at](async () => handler(request)) });
  const middleware = manager
    ? [timing('outer'), await batonLangChainMiddleware(manager), timing('inner')]
    : [timing('outer'), timing('inner')];
  const observation = observationsOf(loop);
  const run = lcTool(async () => observation(), { name: 'run', description: 'Run a shell command', schema: SCHEMA });
  const agent = createAgent({
    model: new ChatOpenAI({ model: 'bench-model', apiKey: 'bench', configuration: { baseURL }, maxRetries: 0 }),
    tools: [run],
    systemPrompt: loop.system,
    middleware,
  });
  await agent.invoke({ messages: [{ role: 'user', content: loop.task }] }, { recursionLimit: 4 * loop.steps.length + 10 });
}

async function runOpenAIAgents(loop: RecordedLoop, baseURL: string, timer: CallTimer, manager?: ContextManager): Promise<void> {
  setTracingDisabled(true);
  const base = new OpenAIChatCompletionsModel(new OpenAI({ apiKey: 'bench', baseURL, maxRetries: 0 }), 'bench-model');
  const inner = {
    getResponse: (request: Parameters<typeof base.getResponse>[0]) => timer.inner(() => base.getResponse(request)),
    getStreamedResponse: base.getStreamedResponse.bind(base),
  };
  const managed = manager ? batonAgentsModel(manager, inner) : inner;
  const model = {
    getResponse: (request: Parameters<typeof base.getResponse>[0]) => timer.outer(() => managed.getResponse(request)),
    getStreamedResponse: base.getStreamedResponse.bind(base),
  };
  const observation = observationsOf(loop);
  const run = agentsTool({ name: 'run', description: 'Run a shell command', parameters: SCHEMA, execute: async () => observation() });
  const agent = new Agent({ name: 'bench', instructions: loop.system, tools: [run], model });
  await runAgent(agent, loop.task, { maxTurns: loop.steps.length + 1 });
}
