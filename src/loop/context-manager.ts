import { definedFields, parseInput } from '../util/index.js';
import { describeToolCall, exitCodeOf, failureOf } from '../vocabulary/index.js';
import { assembleContext, type ManagerView, type PlanState } from './assemble-context.js';
import { intentOf, type ToolIntent } from './classify-tool.js';
import { observeAssembly } from './loop-metrics.js';
import { diffPaths } from './processors/edit-file.js';
import { findErrorLines } from './processors/error-lines.js';
import { processToolOutput } from './processors/process-tool-output.js';
import { resolveManagerOptions } from './resolve-manager-options.js';
import { assembleOptionsSchema, loopEventSchema } from './loop-option-schemas.js';
import { type FileView, parseFileView } from './snippets/parse-file-view.js';
import type { SnippetEntry } from './snippets/rank-snippets.js';
import type { SnippetExtractor } from './snippets/snippet-extractor.js';
import { extractDecisions, LoopState } from './tracker/loop-state.js';
import { PinnedFacts } from './tracker/pinned-facts.js';
import type { ToolResultRecord, Turn } from './turn.js';
import type { AssembledContext, AssembleOptions, ContextManagerOptions, LoopEvent, ResolvedManagerOptions, ToolCall } from './types.js';

/** Views older than this many turns are snippet candidates only when edited or much mentioned. */
const SNIPPET_LOOKBACK_TURNS = 12;
/** The most mentioned names an old view must hold one of to be parsed for snippets. */
const TOP_MENTIONS = 8;
/** Outputs shorter than this are not worth an LLM call. */
const LLM_SUMMARY_MIN_CHARS = 2000;
const LLM_SUMMARY_TOKENS = 150;
const CODE_TERM = /`([A-Za-z_][\w.]*)`|\b([A-Za-z]+_[\w]+|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)\b/g;

/**
 * Records an agent loop as it happens and assembles, before each model call, the best context
 * that fits a token budget (see assembleContext for the rules). Raw tool outputs stay here and
 * can be fetched back with `fetchRaw`. Not thread-safe; one manager per loop.
 *
 * @example
 * const manager = await createContextManager({ model: 'gpt-4o' });
 * manager.record({ kind: 'system', text: system });
 * manager.record({ kind: 'user', text: task });
 * const { messages } = manager.assemble();
 */
export class ContextManager {
  readonly options: ResolvedManagerOptions;
  readonly state = new LoopState();
  /** The newest request, open plan items and newest failure (failureOf), pinned beside the goal. */
  readonly pinned = new PinnedFacts();
  private system: string | undefined;
  private goal: string | undefined;
  private readonly references: string[] = [];
  private readonly turns: Turn[] = [];
  private readonly raw = new Map<string, string>();
  private readonly snippets = new Map<string, SnippetEntry>();
  private readonly mentions = new Map<string, number>();
  /** Mentioned names in first-seen order, so a deferred summary sees the names known when its output arrived. */
  private readonly mentionOrder: string[] = [];
  /** File views not parsed yet: parsed at a compaction (snippets) or an edit (outline), if still relevant. */
  private pendingViews: { view: FileView; turn: number }[] = [];
  private readonly latestView = new Map<string, FileView>();
  private readonly plans = new Map<number, PlanState>();
  private readonly memo: ManagerView['memo'] = new Map();

  constructor(
    options: ContextManagerOptions = {},
    private readonly extractor?: SnippetExtractor,
  ) {
    this.options = resolveManagerOptions(options);
  }

  /**
   * Records one event. Tool results attach to the turn whose call they answer.
   * @throws BatonError('INPUT_INVALID') for an event of the wrong shape, naming the field (and the spelling expected).
   */
  record(input: LoopEvent): void {
    this.apply(parseInput(loopEventSchema, input, { what: 'ContextManager.record event', code: 'INPUT_INVALID' }));
  }

  /** Records events in order. */
  recordAll(events: Iterable<LoopEvent>): void {
    for (const event of events) this.record(event);
  }

  /**
   * Records events Baton's own readers built (typed by construction, never a caller's input) in
   * order, without the schema check `record` makes at the public edge (issue 35: input is checked
   * once, where it enters). @internal
   */
  recordTrusted(events: Iterable<LoopEvent>): void {
    for (const event of events) this.apply(event);
  }

  private apply(event: LoopEvent): void {
    if (event.kind === 'system') this.system = event.text;
    else if (event.kind === 'user') this.recordUser(event.text, event.reference === true);
    else if (event.kind === 'assistant') this.recordAssistant(event.text, event.toolCalls ?? []);
    else this.recordTool(event);
  }

  /** The full output of a tool call that the prompt shows masked or summarized. */
  fetchRaw(rawId: string): string | undefined {
    return this.raw.get(rawId);
  }

  /** Number of turns recorded (model turns and user messages after the task). */
  get turnCount(): number {
    return this.turns.length;
  }

  /**
   * Assembles the context for the next model call. See assembleContext.
   * @throws BatonError('CONFIG_INVALID') for an unknown option or a budget under MIN_BUDGET_TOKENS.
   */
  assemble(input: AssembleOptions = {}): AssembledContext {
    const started = performance.now();
    const options = parseInput(assembleOptionsSchema, input, { what: 'ContextManager.assemble options' });
    const budget = options.budget ?? this.options.budget;
    const persistent = options.keepTurns === undefined && options.recentTurns === undefined && options.toolResults === undefined;
    const result = assembleContext(this.view(), { ...options, budget }, persistent ? this.plans.get(budget) : undefined);
    if (persistent) this.plans.set(budget, result.plan);
    if (this.options.metrics) observeAssembly(result.context, (performance.now() - started) / 1000);
    return result.context;
  }

  private view(): ManagerView {
    return {
      options: this.options,
      system: this.system,
      goal: this.goal,
      references: this.references,
      turns: this.turns,
      snippets: () => this.currentSnippets(),
      state: this.state,
      pinned: this.pinned,
      mentions: (name) => this.mentions.get(name) ?? 0,
      memo: this.memo,
    };
  }

  private recordUser(text: string, reference: boolean): void {
    if (reference) this.references.push(text);
    else if (this.goal === undefined) this.goal = text;
    else {
      this.turns.push({ index: this.turns.length, kind: 'user', text, toolCalls: [], results: [], cache: {} });
      this.pinned.recordRequest(text);
    }
    this.countMentions(text);
  }

  private recordAssistant(text: string, toolCalls: ToolCall[]): void {
    this.turns.push({ index: this.turns.length, kind: 'assistant', text, toolCalls, results: [], cache: {} });
    this.state.turns += 1;
    const first = toolCalls[0];
    const action = typeof first?.args.command === 'string' ? first.args.command : first ? first.name : text;
    this.state.lastAction = clipLine(action, 120);
    this.state.recordDecisions(extractDecisions(text));
    this.countMentions(text);
  }

  private recordTool(event: Extract<LoopEvent, { kind: 'tool' }>): void {
    // The call it answers is looked for among the last 8 turns.
    const asked = this.turns.slice(-8).findLast((t) => t.toolCalls.some((c) => c.id === event.callId));
    const turn = asked ?? this.turns.at(-1);
    if (turn?.kind !== 'assistant') {
      // A result with no call to attach to still belongs in the history, as a user-visible note.
      const text = `[tool ${event.name}]\n${event.text}`;
      this.turns.push({ index: this.turns.length, kind: 'user', text, toolCalls: [], results: [], cache: {} });
      return;
    }
    const call = turn.toolCalls.find((c) => c.id === event.callId) ?? { id: event.callId, name: event.name, args: {} };
    // One reading of the call, from the vocabulary's table: the processor's kind and the files it changed.
    const described = describeToolCall(call.name, call.args);
    const intent = intentOf(described);
    if (!intent.path && event.openFile && event.openFile !== 'n/a' && (intent.kind === 'edit_file' || intent.kind === 'read_file')) {
      intent.path = event.openFile;
    }
    const rawId = `r${this.raw.size + 1}`;
    this.raw.set(rawId, event.text);
    const extractor = this.extractor;
    const knownMentions = this.mentionOrder.length;
    // Most outputs are never shown summarized (verbatim while recent, masked or dropped later), so
    // the summary is made on first use, from what was known when the output arrived.
    const summarize = () =>
      processToolOutput({
        intent,
        toolName: call.name,
        args: call.args,
        output: event.text,
        relevantTerms: new Set(this.mentionOrder.slice(0, knownMentions)),
        ...definedFields({ exitCode: event.exitCode, outline: extractor?.outline }),
      }).summary;
    let summary: string | undefined;
    const exitCode = event.exitCode ?? exitCodeOf(event.text);
    const failure = failureOf({
      name: call.name,
      args: call.args,
      output: event.text,
      ...definedFields({ isError: event.isError, exitCode }),
    });
    this.trackFiles(turn, intent, event.text, failure.failed);
    // Every file an edit or write changed as the vocabulary reads the call (Codex apply_patch paths
    // from the patch, Gemini absolute_path, MultiEdit, NotebookEdit ...), beyond the first one.
    if (!failure.failed && (described.kind === 'edit' || described.kind === 'write')) {
      for (const path of described.paths) if (!this.state.files.isModified(path)) this.state.files.recordEdit(path, turn.index);
    }
    // Error-looking lines of what ran and of file views (where the code raises or catches: what a
    // view's digest keeps once its listing is gone), never of searches and listings, the failure's own line last.
    const shown = intent.kind !== 'grep' && intent.kind !== 'list_dir';
    const errorLines = shown ? findErrorLines(event.text).slice(-2) : [];
    this.state.recordErrorLines(turn.index, errorLines);
    if (failure.failed && failure.line) this.state.recordErrors(turn.index, [failure.line]);
    this.pinned.recordResult({ name: call.name, args: call.args, output: event.text, failure });
    const result: ToolResultRecord = {
      callId: event.callId,
      name: call.name,
      args: call.args,
      intent,
      raw: event.text,
      rawId,
      ...(event.isError === true || (exitCode !== undefined && exitCode !== 0) ? { isError: true } : {}),
      get summary() {
        summary ??= summarize();
        return summary;
      },
    };
    turn.results.push(result);
    turn.cache = {};
    this.requestLlmSummary(turn, result);
  }

  /**
   * What a tool output says about files: a file view to parse for snippets later, edited files and
   * functions. A failed edit (a patch that did not apply, an edit refused) changed nothing.
   */
  private trackFiles(turn: Turn, intent: ToolIntent, output: string, failed: boolean): void {
    const isFileTool = intent.kind === 'read_file' || intent.kind === 'edit_file';
    const view = isFileTool ? parseFileView(output, intent.kind === 'read_file' ? intent.path : undefined) : undefined;
    if (view && this.extractor) {
      // Parsing is the costly part of recording, so a view is parsed only when it is needed.
      this.latestView.set(view.path, view);
      this.pendingViews.push({ view, turn: turn.index });
    }
    if (intent.kind === 'edit_file' && !failed) {
      const path = intent.path ?? view?.path;
      if (path) {
        // Edited lines map to the functions of the latest view of that file (the edit's own echo).
        const latest = this.latestView.get(path);
        if (latest && this.extractor) {
          this.state.files.recordOutline(path, this.extractor.outline(latest.path, latest.lines.join('\n'), latest.startLine));
        }
        this.state.files.recordEdit(path, turn.index, intent.lines);
      }
    }
    for (const path of diffPaths(output)) this.state.files.recordEdit(path, turn.index);
  }

  /** Asks the optional summarizer in the background; a failure leaves the processor summary. */
  private requestLlmSummary(turn: Turn, result: ToolResultRecord): void {
    const summarizer = this.options.summarizer;
    if (!summarizer || result.raw.length < LLM_SUMMARY_MIN_CHARS) return;
    summarizer.summarize(result.raw, { targetTokens: LLM_SUMMARY_TOKENS }).then(
      (text) => {
        if (!text.trim()) return;
        result.llmSummary = text.trim();
        // A summary already in the prompt stays until the next compaction, keeping the prefix stable.
        if (turn.cache.summary) turn.summaryStale = true;
      },
      () => undefined,
    );
  }

  private countMentions(text: string): void {
    for (const m of text.matchAll(CODE_TERM)) {
      const term = m[1] ?? m[2];
      if (!term) continue;
      const seen = this.mentions.get(term);
      if (seen === undefined) this.mentionOrder.push(term);
      this.mentions.set(term, (seen ?? 0) + 1);
    }
  }

  /**
   * The snippet candidates, parsing the views recorded since the last call. A view older than
   * SNIPPET_LOOKBACK_TURNS is parsed only when its file was edited or it holds one of the most
   * mentioned names: anything else ranks below every recent snippet (see rankSnippets), so it
   * is skipped unparsed.
   */
  private currentSnippets(): SnippetEntry[] {
    const extractor = this.extractor;
    if (extractor && this.pendingViews.length > 0) {
      const oldest = this.turns.length - SNIPPET_LOOKBACK_TURNS;
      const top = [...this.mentions.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP_MENTIONS)
        .map(([name]) => name);
      for (const { view, turn } of this.pendingViews) {
        const relevant =
          turn >= oldest || this.state.files.isModified(view.path) || top.some((name) => view.lines.some((line) => line.includes(name)));
        if (!relevant) continue;
        for (const snippet of extractor.extract(view)) {
          this.snippets.set(`${snippet.path}#${snippet.kind}:${snippet.name}`, { snippet, turn });
        }
      }
      this.pendingViews = [];
    }
    return [...this.snippets.values()];
  }
}

function clipLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
