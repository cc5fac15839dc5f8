import { fit, type PackResult, packSections, type Section } from '../budget/index.js';
import { isBatonError } from '../errors/index.js';
import { o200kCounter, type TokenCounter } from '../tokens/index.js';
import { buildContinuationPrompt } from './build-continuation-prompt.js';
import { buildContextFields, type ContextField } from './context-fields.js';
import { FORMAT_TOKEN_CAPS, PROMPT_TOKEN_CAPS } from './format-budgets.js';
import { buildNarrativeSections } from './narrative-sections.js';
import type { ContextDelta } from './snapshot-delta.js';
import type { ContextSnapshot, RefreshFormat, RefreshMetadata, RenderedContext, RenderJob } from './types.js';

/** A render job (format, clock, caps, sent form) with the whole metadata, run in this thread. */
export interface RenderOptions extends Omit<RenderJob, 'metadata'> {
  /** Metadata to embed; token_estimate, token_budget, dropped and trimmed are filled in here. */
  metadata: Omit<RefreshMetadata, 'token_estimate' | 'token_budget' | 'dropped' | 'trimmed'>;
  counter?: TokenCounter;
  /** Changes since an earlier point (§8.2), shown ahead of the rest. */
  delta?: ContextDelta;
}

/**
 * Renders a snapshot in one format within its hard token cap. Every piece goes through
 * `packSections` (the one packer); the real o200k count of what is sent (the text, and the
 * context plus metadata as JSON, which is what clients such as Claude Code forward) is checked and
 * the budget tightened until both fit, so `metadata.token_estimate <= token_budget` always holds.
 * A cap too small for the required parts gets the task's headline instead. Pure.
 */
export function renderContext(snapshot: ContextSnapshot, options: RenderOptions): RenderedContext {
  const counter = options.counter ?? o200kCounter;
  const cap = options.maxTokens ?? FORMAT_TOKEN_CAPS[options.format];
  const prompt = options.generateContinuationPrompt === false ? undefined : promptWithin(snapshot, options, cap, counter);
  // Each stage is tried until one fits; the headline always does.
  const stages: Stage[] =
    options.format === 'narrative'
      ? [narrativeStage(snapshot, options, prompt, counter)]
      : [jsonStage(snapshot, options.format, options, prompt, counter)];
  if (options.format !== 'narrative' && options.format !== 'minimal') {
    // A share too small for this format's required parts (many tasks at once): the minimal shape.
    stages.push(jsonStage(snapshot, 'minimal', options, undefined, counter, SHAPE_WARNING));
  }
  stages.push(() => headlineAttempt(snapshot, options, counter));
  return fitStages(cap, counter, options, stages);
}

/** Added to the warnings when a context had to take a smaller shape than its format. */
export const SHAPE_WARNING =
  "The cap (or this task's share of it) was too small for the format's required parts: a smaller shape was rendered.";

type Stage = (budget: number) => Attempt;

/** The continuation prompt within its share of the cap; none when even its required parts do not fit. */
function promptWithin(snapshot: ContextSnapshot, options: RenderOptions, cap: number, counter: TokenCounter): string | undefined {
  const promptCap = Math.min(PROMPT_TOKEN_CAPS[options.format], Math.floor(cap * 0.4));
  try {
    return buildContinuationPrompt(snapshot, { maxTokens: promptCap, now: options.now, counter });
  } catch (error) {
    if (isBatonError(error, 'BUDGET_TOO_SMALL')) return undefined;
    throw error;
  }
}

function jsonStage(
  snapshot: ContextSnapshot,
  format: Exclude<RefreshFormat, 'narrative'>,
  options: RenderOptions,
  prompt: string | undefined,
  counter: TokenCounter,
  warning?: string,
): Stage {
  const fields = buildContextFields(snapshot, format, options.now);
  if (prompt !== undefined) {
    fields.push({
      id: 'continuation_prompt',
      kind: 'text',
      value: prompt,
      priority: 91,
      required: true,
      overflow: 'trim-tail',
    });
  }
  if (options.delta) fields.push(...deltaFields(options.delta));
  const sections = fields.map((field) => toSection(field, counter));
  return (budget) => {
    const packed = packSections(sections, { budget, counter, separator: '\n', exact: false });
    const context = nestDelta(assemble(fields, packed));
    return {
      packed,
      context,
      textOf: (metadata) => JSON.stringify({ ...context, metadata }, null, 1),
      prompt: context.continuation_prompt as string | undefined,
      warning,
    };
  };
}

function narrativeStage(snapshot: ContextSnapshot, options: RenderOptions, prompt: string | undefined, counter: TokenCounter): Stage {
  const sections = buildNarrativeSections(snapshot, options.now);
  if (prompt !== undefined) {
    sections.push({
      id: 'continuation_prompt',
      text: `## Next Steps\n\n${demote(prompt)}`,
      priority: 90,
      required: true,
      overflow: 'trim-tail',
      minTokens: 60,
    });
  }
  if (options.delta) sections.push(deltaSection(options.delta));
  for (const section of sections) section.tokens = counter.count(section.text);
  return (budget) => {
    const packed = packSections(sections, { budget, counter });
    const keptPrompt = packed.sections.find((s) => s.id === 'continuation_prompt')?.text;
    return {
      packed,
      context: { markdown: packed.text },
      textOf: (metadata) =>
        `${packed.text}\n\n---\n_format ${metadata.format}, ${metadata.token_estimate} tokens, ${metadata.redactions} redactions, sources: ${metadata.sources.join(', ')}_\n`,
      prompt: keptPrompt,
    };
  };
}

interface Attempt {
  packed: PackResult;
  context: Record<string, unknown>;
  textOf: (metadata: RefreshMetadata) => string;
  prompt: string | undefined;
  /** Said in metadata.warnings when this attempt is the one sent. */
  warning?: string;
}

/** Room kept for `metadata` when packing the content (the fit corrects any error exactly). */
export const METADATA_RESERVE_TOKENS = 150;

/**
 * The tokens a client receives: the larger of the text block and `structuredContent` (the context
 * plus its metadata) as JSON. Claude Code forwards `structuredContent` to the model, other clients
 * the text, so the cap must hold for both.
 */
export function sentTokens(text: string, structured: Record<string, unknown>, counter: TokenCounter = o200kCounter): number {
  return Math.max(counter.count(text), counter.count(JSON.stringify(structured)));
}

/** One stage's render at one budget, its metadata settled, with what it measured. */
interface Fitted {
  rendered: RenderedContext;
  spent: number;
  measured: { tokens: number; bytes: number };
}

/**
 * Each stage in turn, fitted by budget/fit until what is sent (text and structured form, metadata
 * included; as the client receives it, given `sent`) is within `cap` and the byte limit. When even
 * the required parts cannot fit (a small share of a many-task refresh), the one-line headline of the
 * task is rendered instead: never an error.
 */
function fitStages(cap: number, counter: TokenCounter, options: RenderOptions, stages: readonly Stage[]): RenderedContext {
  const caps = { tokens: cap, bytes: options.sent?.maxBytes ?? Infinity };
  for (const [i, stage] of stages.entries()) {
    const isLast = i === stages.length - 1;
    try {
      const result = fit(
        (budget) => settle(stage(budget), cap, counter, options),
        (fitted) => fitted.measured,
        // Shrinks from what the packer actually used: the sections' sum can sit well below the
        // budget while the nested JSON around them is what overflows.
        { caps, budget: cap - METADATA_RESERVE_TOKENS, spent: (fitted) => fitted.spent },
      );
      if (result.fits || isLast) return result.candidate.rendered;
    } catch (error) {
      if (!isBatonError(error, 'BUDGET_TOO_SMALL') || isLast) throw error;
    }
  }
  throw new Error('renderContext: no stage to render');
}

/** The attempt with its metadata: the count is embedded in what it counts, settled in at most two passes. */
function settle(attempt: Attempt, cap: number, counter: TokenCounter, options: RenderOptions): Fitted {
  const metadata: RefreshMetadata = {
    ...options.metadata,
    warnings: attempt.warning ? [...options.metadata.warnings, attempt.warning] : options.metadata.warnings,
    token_estimate: 0,
    token_budget: cap,
    dropped: countByGroup(attempt.packed.dropped),
    trimmed: countByGroup(attempt.packed.trimmed),
  };
  const measure = () => sentTokens(attempt.textOf(metadata), { ...attempt.context, metadata }, counter);
  metadata.token_estimate = measure();
  const recount = measure();
  if (recount !== metadata.token_estimate) metadata.token_estimate = measure();
  const text = attempt.textOf(metadata);
  const json = JSON.stringify({ ...attempt.context, metadata });
  const escaped = options.sent?.escaped ? counter.count(JSON.stringify(options.format === 'narrative' ? text : json)) : undefined;
  return {
    rendered: { context: attempt.context, text, continuationPrompt: attempt.prompt, metadata },
    spent: attempt.packed.tokens,
    measured: {
      tokens: escaped ?? metadata.token_estimate,
      bytes: options.sent?.maxBytes === undefined ? 0 : Buffer.byteLength(json),
    },
  };
}

/**
 * What was dropped or trimmed, short: a list item (`modified_files.12`) counts toward its list
 * (`modified_files: 40`), so the report stays a few words however busy the ledger is.
 */
function countByGroup(ids: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const group = id.includes('.') ? id.slice(0, id.indexOf('.')) : id;
    counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  return [...counts].map(([group, n]) => (n > 1 || ids.some((id) => id.startsWith(`${group}.`)) ? `${group}: ${n}` : group));
}

/**
 * The smallest useful context: the task's id, status and title, and the next action, packed into
 * whatever is left (a share of a many-task refresh can be a few dozen tokens).
 */
function headlineAttempt(snapshot: ContextSnapshot, options: RenderOptions, counter: TokenCounter): Attempt {
  const task = snapshot.task;
  const line = task ? `${task.id} [${task.status}] ${task.title}` : `no active task in ${snapshot.workspace}`;
  const room = Math.max(8, (options.maxTokens ?? FORMAT_TOKEN_CAPS[options.format]) - METADATA_RESERVE_TOKENS);
  const packed = packSections([{ id: 'headline', text: line, priority: 100, required: true, minTokens: 4, overflow: 'trim-tail' }], {
    budget: room,
    counter,
  });
  const context = options.format === 'narrative' ? { markdown: `- ${packed.text}` } : { headline: packed.text };
  return {
    packed,
    context,
    textOf: (metadata) => (options.format === 'narrative' ? `- ${packed.text}\n` : JSON.stringify({ ...context, metadata }, null, 1)),
    prompt: undefined,
    warning: SHAPE_WARNING,
  };
}

function toSection(field: ContextField, counter: TokenCounter): Section {
  const text = field.kind === 'text' ? String(field.value ?? '') : (JSON.stringify(field.value, null, 1) ?? 'null');
  const base = { id: field.id, text, priority: field.priority, required: field.required, tokens: counter.count(text) };
  if (field.kind === 'json' && field.summary !== undefined) {
    // Summarized before it is dropped; never cut mid-JSON (its floor is the summary itself).
    const summary = JSON.stringify(field.summary, null, 1);
    return { ...base, overflow: 'summarize', summary, minTokens: counter.count(summary) };
  }
  return {
    ...base,
    overflow: field.kind === 'json' ? (field.required ? 'trim-tail' : 'drop') : (field.overflow ?? 'trim-tail'),
    minTokens: field.kind === 'json' && field.required ? Number.MAX_SAFE_INTEGER : 40,
    maxTokens: field.maxTokens,
  };
}

function assemble(fields: readonly ContextField[], packed: PackResult): Record<string, unknown> {
  const kept = new Map(packed.sections.map((s) => [s.id, s]));
  const context: Record<string, unknown> = {};
  for (const field of fields) {
    const section = kept.get(field.id);
    if (!section) continue;
    const value = field.kind === 'json' ? (section.action === 'summarized' ? field.summary : field.value) : section.text;
    if (field.group) {
      if (!(field.group in context)) context[field.group] = field.kind === 'text' ? {} : [];
      const list = context[field.group] as unknown[] | Record<string, unknown>;
      if (Array.isArray(list)) list.push(value);
      else list[field.key ?? field.id] = value;
    } else {
      context[field.id] = value;
    }
  }
  return context;
}

/** Nests the prompt under the narrative's "Next Steps": its title goes, its headings move down. */
function demote(markdown: string): string {
  return markdown.replace(/^# Session Continuation\n+/, '').replace(/^(#{1,5}) /gm, '#$1 ');
}

const DELTA_KINDS = ['added', 'updated', 'removed'] as const;

function deltaFields(delta: ContextDelta): ContextField[] {
  const fields: ContextField[] = [
    {
      id: 'delta_info',
      kind: 'json',
      value: {
        since: delta.since,
        base: delta.base ?? null,
        added: delta.added.length,
        updated: delta.updated.length,
        removed: delta.removed.length,
      },
      priority: 97,
      required: true,
    },
  ];
  for (const kind of DELTA_KINDS) {
    for (const [i, entry] of delta[kind].entries()) {
      fields.push({
        id: `delta_${kind}.${i}`,
        group: `delta_${kind}`,
        kind: 'json',
        value: entry,
        priority: 87 - i * 0.01,
        overflow: 'drop',
      });
    }
  }
  return fields;
}

function nestDelta(context: Record<string, unknown>): Record<string, unknown> {
  if (!('delta_info' in context)) return context;
  const { delta_info, delta_added, delta_updated, delta_removed, ...rest } = context;
  return {
    delta: { ...(delta_info as object), added: delta_added ?? [], updated: delta_updated ?? [], removed: delta_removed ?? [] },
    ...rest,
  };
}

function deltaSection(delta: ContextDelta): Section {
  const lines = [`## Changes since ${delta.since}${delta.base ? ` (snapshot ${delta.base})` : ''}`, ''];
  for (const kind of DELTA_KINDS) {
    for (const entry of delta[kind]) lines.push(`- ${kind}: \`${entry.key}\`${entry.changed ? ` (${entry.changed.join(', ')})` : ''}`);
  }
  if (lines.length === 2) lines.push('Nothing changed.');
  return { id: 'delta', text: lines.join('\n'), priority: 96, overflow: 'trim-tail', minTokens: 20 };
}
