import type { LanguageModel } from 'ai';
import { BatonError, errorMessage } from '../errors/index.js';
import { counter, getLogger } from '../observability/index.js';
import type { Ledger } from '../ledger/index.js';
import type { Provider } from '../providers/index.js';
import {
  createExtractiveSummarizer,
  createLlmSummarizer,
  MemorySummaryCache,
  type Summarizer,
  type SummaryCache,
  summaryTargetTokens,
  withSummaryCache,
} from '../summarize/index.js';
import { contextLimitFor, o200kCounter, type TokenCounter } from '../tokens/index.js';
import { definedFields, parseInput } from '../util/index.js';
import { buildAgentMessages } from './build-agent-messages.js';
import { type AgentCallResult, callAgentModel } from './call-agent-model.js';
import { callBatonProvider } from './call-baton-provider.js';
import { createLanguageModel, describeModel } from './create-language-model.js';
import { withDuplicatePrevention } from './duplicate-prevention.js';
import { endPanelSession, finishAgentDispatch, panelTaskId, startAgentDispatch, startPanelSession } from './panel-ledger.js';
import { runPanelArgsSchema } from './panel-options-schema.js';
import { type FitPanelContextInput, type FitPanelContextResult, fitPanelContext } from './fit-panel-context.js';
import type {
  Attribution,
  ContextFallbackReason,
  ContextMode,
  PanelAgent,
  PanelAnswer,
  PanelConfig,
  PanelHttpModelSpec,
  PanelResult,
  PriorAnswer,
} from './types.js';

/** Reserved answer length when neither the agent nor the panel sets one. @default 1024 */
export const DEFAULT_PANEL_MAX_OUTPUT_TOKENS = 1024;
/** Wall-clock limit of one agent's answer. @default 120000 */
export const DEFAULT_PANEL_AGENT_TIMEOUT_MS = 120_000;

/** Summaries shared by every panel run in this process, so a repeat never summarizes twice. */
const processSummaryCache = new MemorySummaryCache();

/** Sent to `onAgentStart` once the agent's context is decided, before its call. */
export interface AgentStartEvent {
  agent: string;
  index: number;
  model: string;
  contextMode: ContextMode;
  contextFrom: string[];
}

export interface RunPanelOptions {
  /** Where the session and one dispatch per answer are recorded. */
  ledger: Ledger;
  /** Cancels the panel: the running agent is recorded as interrupted and the rest are skipped. */
  signal?: AbortSignal;
  /** Streams answers (streamText) and receives each text delta. Without it answers are generated whole. */
  onToken?: (event: { agent: string; index: number; text: string }) => void;
  onAgentStart?: (event: AgentStartEvent) => void;
  onAgentEnd?: (answer: PanelAnswer) => void;
  /** Overrides the panel file's attribution. @default config.attribution */
  attribution?: Attribution;
  /** Where summaries are cached by content hash. @default a process-wide in-memory LRU */
  summaryCache?: SummaryCache;
  /** Writes summaries for an agent's context. @default an LLM summarizer on summaryModel, else the agent's model */
  summarizerFor?: (agent: PanelAgent) => Summarizer;
  /** Turns a model spec into an AI SDK model (tests, custom providers). @default createLanguageModel */
  createModel?: (spec: PanelHttpModelSpec) => LanguageModel;
  /** Baton providers by name, for agents whose model is `{"provider":"baton","name":…}`. @default {} */
  providers?: Readonly<Record<string, Provider>>;
  /** Working folder for Baton provider runs. @default process.cwd() */
  cwd?: string;
  /** @default o200kCounter */
  counter?: TokenCounter;
  /** @default Date.now */
  now?: () => number;
}

/**
 * Runs a panel (seed 003): each agent answers `question` in turn; each later agent receives the
 * earlier successful answers (full, summarized on overflow, or none; see `fitPanelContext`) and
 * duplicate-prevention instructions. Failed answers are recorded and never passed on; provider
 * errors never throw. The exchange is recorded in the ledger: a 'sessions' record
 * ({kind:'panel'}) and one dispatch per answer under task id `panel:<session>`.
 *
 * @throws BatonError('INPUT_INVALID') for an empty question; 'CONFIG_INVALID' for an unknown option
 *   (naming the spelling expected) or a value of the wrong type; ledger errors propagate.
 * @example
 * const result = await runPanel(await loadPanelConfig('panel.json'), 'How do I improve my serve?', { ledger });
 */
export async function runPanel(config: PanelConfig, question: string, options: RunPanelOptions): Promise<PanelResult> {
  parseInput(runPanelArgsSchema, { config, options }, { what: 'runPanel' });
  if (typeof question !== 'string') {
    throw new BatonError('INPUT_INVALID', `runPanel: question must be a string; got ${typeof question}`, {
      details: { field: 'question' },
    });
  }
  const trimmed = question.trim();
  if (!trimmed) throw new BatonError('INPUT_INVALID', 'The question is empty: ask the panel something', { details: { field: 'question' } });
  const run = resolvePanelRun(config, options);
  checkBatonProviders(config, run.providers);
  const session = await startPanelSession(run.ledger, {
    question: trimmed,
    agents: config.agents.map((agent) => agent.name),
    attribution: run.attribution,
    panelFile: config.file,
  });
  const taskId = panelTaskId(session.id);
  const answers: PanelAnswer[] = [];
  for (const [index, agent] of config.agents.entries()) {
    if (options.signal?.aborted) break;
    const answer = await answerOne(run, { agent, index, question: trimmed, taskId, prior: answers });
    answers.push(answer);
    options.onAgentEnd?.(answer);
  }
  await endPanelSession(run.ledger, session.id, answers, run.now());
  return { session: session.id, taskId, question: trimmed, attribution: run.attribution, answers };
}

/** The options of one panel run with every default applied once. */
function resolvePanelRun(config: PanelConfig, options: RunPanelOptions) {
  const createModel = options.createModel ?? createLanguageModel;
  return {
    config,
    options,
    ledger: options.ledger,
    now: options.now ?? Date.now,
    counter: options.counter ?? o200kCounter,
    createModel,
    attribution: options.attribution ?? config.attribution,
    summarizerFor: options.summarizerFor ?? defaultSummarizers(config, createModel, options.summaryCache ?? processSummaryCache),
    providers: options.providers ?? {},
  };
}

type PanelRun = ReturnType<typeof resolvePanelRun>;

/** Every agent on a Baton provider names one that exists, before anything is recorded. */
function checkBatonProviders(config: PanelConfig, providers: Readonly<Record<string, Provider>>): void {
  config.agents.forEach((agent, i) => {
    if (agent.model.provider === 'baton' && !providers[agent.model.name]) {
      throw new BatonError(
        'CONFIG_INVALID',
        `${config.file ?? 'panel'}: agents[${i}].model.name: no Baton provider "${agent.model.name}" (known: ${Object.keys(providers).join(', ') || 'none'}); declare it in baton.config.json`,
        { details: { file: config.file, field: `agents[${i}].model.name`, value: agent.model.name } },
      );
    }
  });
}

interface PanelStep {
  agent: PanelAgent;
  index: number;
  question: string;
  taskId: string;
  prior: readonly PanelAnswer[];
}

/** One agent's turn: decide its context, record the dispatch, call it, record the answer. */
async function answerOne(run: PanelRun, step: PanelStep): Promise<PanelAnswer> {
  const { agent, index } = step;
  const { config, options } = run;
  const maxOutputTokens = agent.maxOutputTokens ?? config.maxOutputTokens ?? DEFAULT_PANEL_MAX_OUTPUT_TOKENS;
  const fit = await prepareAgentContext(run, step, maxOutputTokens);
  const call = buildAgentMessages({
    systemPrompt: agent.prompt.text,
    question: step.question,
    context: fit.context,
    attribution: run.attribution,
  });
  const model = describeModel(agent.model);
  const contextFrom = fit.context.map((a) => a.agent);
  options.onAgentStart?.({ agent: agent.name, index, model, contextMode: fit.mode, contextFrom });

  const startedAt = run.now();
  const dispatch = await startAgentDispatch(run.ledger, {
    taskId: step.taskId,
    agent: agent.name,
    model,
    system: call.system,
    context: call.messages
      .slice(0, -1)
      .map((m) => m.content)
      .join('\n\n'),
    startedAt,
  });
  const result = await callAgent(run, step, call, maxOutputTokens);
  const finishedAt = run.now();
  const promptTokens = run.counter.count(call.system) + call.messages.reduce((sum, m) => sum + run.counter.count(m.content), 0);
  const answer: PanelAnswer = {
    agent: agent.name,
    index,
    ok: result.ok,
    text: result.text,
    ...definedFields({ error: result.error }),
    outcome: result.outcome,
    contextMode: fit.mode,
    contextFrom,
    ...definedFields({ contextFallback: fit.fallback }),
    model,
    promptVersion: agent.prompt.version,
    tokens: {
      input: result.usage.input ?? promptTokens,
      output: result.usage.output ?? run.counter.count(result.text),
      context: fit.contextTokens,
    },
    durationMs: finishedAt - startedAt,
    dispatchId: dispatch.id,
  };
  await finishAgentDispatch(run.ledger, answer, finishedAt);
  recordAnswer(answer.outcome);
  return answer;
}

/**
 * The earlier successful answers this agent sees: in full when they fit (`fitPanelContext`); else
 * every one is summarized in parallel (each aimed at 25% of its length; the cache makes repeats
 * free) and `fitPanelContext` decides again with the summaries that succeeded. A failed summary is
 * logged and left out, which makes the decision fall back to no context.
 */
async function prepareAgentContext(run: PanelRun, step: PanelStep, maxOutputTokens: number): Promise<FitPanelContextResult> {
  const { agent } = step;
  const answers: PriorAnswer[] = step.prior.filter((a) => a.ok).map((a) => ({ agent: a.agent, text: a.text }));
  const summarizer = run.summarizerFor(agent);
  const input: FitPanelContextInput = {
    system: withDuplicatePrevention(
      agent.prompt.text,
      answers.map((a) => a.agent),
    ),
    question: step.question,
    answers,
    attribution: run.attribution,
    limitTokens: agent.maxContextTokens ?? run.config.maxContextTokens ?? contextLimitFor(agent.model.model),
    reserveTokens: maxOutputTokens,
    counter: run.counter,
  };
  let fit = fitPanelContext(input);
  if (fit.needsSummaries) {
    const summaries = new Map<number, string>();
    await Promise.all(
      answers.map(async (answer, i) => {
        try {
          const targetTokens = summaryTargetTokens(answer.text, run.counter);
          summaries.set(i, await summarizer.summarize(answer.text, { targetTokens, signal: run.options.signal }));
        } catch (error) {
          // Expected and handled (fallback to no context), so a line without a stack is enough.
          getLogger().warn({ agent: answer.agent, reason: errorMessage(error) }, 'panel summary failed; that answer cannot be passed on');
        }
      }),
    );
    fit = fitPanelContext({ ...input, summaries });
  }
  if (answers.length > 0) recordContextDecision(fit.mode, fit.fallback);
  return fit;
}

/** Calls the agent's model: a Baton provider (an agent CLI) or an HTTP model through the AI SDK. */
async function callAgent(
  run: PanelRun,
  step: PanelStep,
  call: ReturnType<typeof buildAgentMessages>,
  maxOutputTokens: number,
): Promise<AgentCallResult> {
  const { agent, index } = step;
  const { options } = run;
  const onToken = options.onToken && ((text: string) => options.onToken?.({ agent: agent.name, index, text }));
  const timeoutMs = agent.timeoutMs ?? run.config.timeoutMs ?? DEFAULT_PANEL_AGENT_TIMEOUT_MS;
  const spec = agent.model;
  if (spec.provider === 'baton') {
    return callBatonProvider({
      provider: run.providers[spec.name] as Provider,
      model: spec.model,
      system: call.system,
      messages: call.messages,
      timeoutMs,
      cwd: options.cwd ?? process.cwd(),
      taskId: step.taskId,
      signal: options.signal,
      onToken,
    });
  }
  return callAgentModel({
    model: run.createModel(spec),
    system: call.system,
    messages: call.messages,
    maxOutputTokens,
    timeoutMs,
    signal: options.signal,
    onToken,
  });
}

/**
 * One cached summarizer per summary model, shared by the agents that use it. An agent on a Baton
 * provider with no HTTP summary model falls back to the offline extractive summarizer: flattening
 * a summary request through an agent CLI would be slow and could touch the workspace.
 */
function defaultSummarizers(
  config: PanelConfig,
  createModel: (spec: PanelHttpModelSpec) => LanguageModel,
  cache: SummaryCache,
): (agent: PanelAgent) => Summarizer {
  const byModel = new Map<string, Summarizer>();
  return (agent) => {
    const spec = agent.summaryModel ?? config.summaryModel ?? (agent.model.provider === 'baton' ? undefined : agent.model);
    const key = spec ? `${describeModel(spec)}@${spec.baseURL ?? ''}` : 'extractive';
    let summarizer = byModel.get(key);
    if (!summarizer) {
      const inner = spec ? createLlmSummarizer({ model: createModel(spec), modelId: describeModel(spec) }) : createExtractiveSummarizer();
      summarizer = withSummaryCache(inner, cache);
      byModel.set(key, summarizer);
    }
    return summarizer;
  };
}

/** Counts one later agent's context decision (seed 003's metrics). */
export function recordContextDecision(mode: ContextMode, fallback: ContextFallbackReason | undefined): void {
  if (mode !== 'none') {
    counter('baton_panel_contexts_passed_total', 'Later panel agents that received earlier answers, by form', ['mode']).inc({ mode });
  } else if (fallback) {
    counter('baton_panel_context_fallbacks_total', 'Later panel agents that got no context although earlier answers existed, by reason', [
      'reason',
    ]).inc({ reason: fallback });
  }
}

/** Counts one agent answer by outcome kind. */
export function recordAnswer(outcome: string): void {
  counter('baton_panel_answers_total', 'Panel agent answers, by outcome kind', ['outcome']).inc({ outcome });
}
