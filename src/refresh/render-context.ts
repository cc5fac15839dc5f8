import { type PackResult, packSections, type Section } from '../budget/index.js';
import { o200kCounter, type TokenCounter } from '../tokens/index.js';
import { buildContinuationPrompt } from './build-continuation-prompt.js';
import { buildContextFields, type ContextField } from './context-fields.js';
import { FORMAT_TOKEN_CAPS, PROMPT_TOKEN_CAPS } from './format-budgets.js';
import { buildNarrativeSections } from './narrative-sections.js';
import type { ContextDelta } from './snapshot-delta.js';
import type { ContextSnapshot, RefreshFormat, RefreshMetadata } from './types.js';

export interface RenderOptions {
  format: RefreshFormat;
  now: number;
  /** @default true */
  generateContinuationPrompt?: boolean;
  /** Hard cap for the whole text. @default FORMAT_TOKEN_CAPS[format] */
  maxTokens?: number;
  /** Metadata to embed; token_estimate, token_budget, dropped and trimmed are filled in here. */
  metadata: Omit<RefreshMetadata, 'token_estimate' | 'token_budget' | 'dropped' | 'trimmed'>;
  counter?: TokenCounter;
  /** Changes since an earlier point (§8.2), shown ahead of the rest. */
  delta?: ContextDelta;
}

export interface RenderedContext {
  context: Record<string, unknown>;
  text: string;
  continuationPrompt?: string;
  metadata: RefreshMetadata;
}

const MAX_REPACKS = 8;

/**
 * Renders a snapshot in one format within its hard token cap. Every piece goes through
 * `packSections` (the one packer); the real o200k count of the final text, metadata included, is
 * checked and the budget tightened until it fits, so `metadata.token_estimate <= token_budget`
 * always holds. Pure.
 *
 * @throws BatonError('BUDGET_TOO_SMALL') when even the required parts do not fit `maxTokens`.
 */
export function renderContext(snapshot: ContextSnapshot, options: RenderOptions): RenderedContext {
  const counter = options.counter ?? o200kCounter;
  const cap = options.maxTokens ?? FORMAT_TOKEN_CAPS[options.format];
  const promptCap = Math.min(PROMPT_TOKEN_CAPS[options.format], Math.floor(cap * 0.4));
  const prompt =
    options.generateContinuationPrompt === false
      ? undefined
      : buildContinuationPrompt(snapshot, { maxTokens: promptCap, now: options.now, counter });
  return options.format === 'narrative'
    ? renderNarrative(snapshot, options, cap, prompt, counter)
    : renderJson(snapshot, options, cap, prompt, counter);
}

function renderJson(
  snapshot: ContextSnapshot,
  options: RenderOptions,
  cap: number,
  prompt: string | undefined,
  counter: TokenCounter,
): RenderedContext {
  const fields = buildContextFields(snapshot, options.format as Exclude<RefreshFormat, 'narrative'>, options.now);
  if (prompt !== undefined) {
    fields.push({ id: 'continuation_prompt', key: 'continuation_prompt', kind: 'text', value: prompt, priority: 91, required: true, overflow: 'trim-tail' });
  }
  if (options.delta) fields.push(...deltaFields(options.delta));
  const sections = fields.map((field) => toSection(field, counter));
  return fitLoop(cap, counter, options, (budget) => {
    const packed = packSections(sections, { budget, counter, separator: '\n', exact: false });
    const context = nestDelta(assemble(fields, packed));
    return { packed, context, textOf: (metadata) => JSON.stringify({ ...context, metadata }, null, 1), prompt: context.continuation_prompt as string | undefined };
  });
}

function renderNarrative(
  snapshot: ContextSnapshot,
  options: RenderOptions,
  cap: number,
  prompt: string | undefined,
  counter: TokenCounter,
): RenderedContext {
  const sections = buildNarrativeSections(snapshot, options.now);
  if (prompt !== undefined) {
    sections.push({ id: 'continuation_prompt', text: `## Next Steps\n\n${demote(prompt)}`, priority: 90, required: true, overflow: 'trim-tail', minTokens: 60 });
  }
  if (options.delta) sections.push(deltaSection(options.delta));
  for (const section of sections) section.tokens = counter.count(section.text);
  return fitLoop(cap, counter, options, (budget) => {
    const packed = packSections(sections, { budget, counter });
    const keptPrompt = packed.sections.find((s) => s.id === 'continuation_prompt')?.text;
    return {
      packed,
      context: { markdown: packed.text },
      textOf: (metadata) =>
        `${packed.text}\n\n---\n_format ${metadata.format}, ${metadata.token_estimate} tokens, ${metadata.redactions} redactions, sources: ${metadata.sources.join(', ')}_\n`,
      prompt: keptPrompt,
    };
  });
}

interface Attempt {
  packed: PackResult;
  context: Record<string, unknown>;
  textOf: (metadata: RefreshMetadata) => string;
  prompt: string | undefined;
}

/** Packs at a shrinking budget until the final text, metadata included, counts within `cap`. */
function fitLoop(cap: number, counter: TokenCounter, options: RenderOptions, attempt: (budget: number) => Attempt): RenderedContext {
  let budget = cap - 150;
  let last: RenderedContext | undefined;
  for (let round = 0; round < MAX_REPACKS; round += 1) {
    const result = attempt(budget);
    const metadata: RefreshMetadata = {
      ...options.metadata,
      token_estimate: 0,
      token_budget: cap,
      dropped: result.packed.dropped,
      trimmed: result.packed.trimmed,
    };
    // The count is embedded in the text it counts: settle it in at most two passes.
    let text = result.textOf(metadata);
    metadata.token_estimate = counter.count(text);
    text = result.textOf(metadata);
    const recount = counter.count(text);
    if (recount !== metadata.token_estimate) {
      metadata.token_estimate = recount;
      text = result.textOf(metadata);
    }
    last = { context: result.context, text, continuationPrompt: result.prompt, metadata };
    if (metadata.token_estimate <= cap) return last;
    budget -= metadata.token_estimate - cap + 24;
  }
  // Unreachable in practice: each round removes at least the excess.
  return last as RenderedContext;
}

function toSection(field: ContextField, counter: TokenCounter): Section {
  const text = field.kind === 'text' ? String(field.value ?? '') : JSON.stringify(field.value, null, 1) ?? 'null';
  return {
    id: field.id,
    text,
    priority: field.priority,
    required: field.required,
    overflow: field.kind === 'json' ? (field.required ? 'trim-tail' : 'drop') : (field.overflow ?? 'trim-tail'),
    minTokens: field.kind === 'json' && field.required ? Number.MAX_SAFE_INTEGER : 40,
    maxTokens: field.maxTokens,
    tokens: counter.count(text),
  };
}

function assemble(fields: readonly ContextField[], packed: PackResult): Record<string, unknown> {
  const kept = new Map(packed.sections.map((s) => [s.id, s]));
  const context: Record<string, unknown> = {};
  for (const field of fields) {
    const section = kept.get(field.id);
    if (!section) continue;
    const value = field.kind === 'json' ? field.value : section.text;
    if (field.group) {
      if (!(field.group in context)) context[field.group] = field.kind === 'text' ? {} : [];
      const list = context[field.group] as unknown[] | Record<string, unknown>;
      if (Array.isArray(list)) list.push(value);
      else list[field.key] = value;
    } else {
      context[field.key] = value;
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
      key: 'delta_info',
      kind: 'json',
      value: { since: delta.since, base: delta.base ?? null, added: delta.added.length, updated: delta.updated.length, removed: delta.removed.length },
      priority: 97,
      required: true,
    },
  ];
  for (const kind of DELTA_KINDS) {
    for (const [i, entry] of delta[kind].entries()) {
      fields.push({ id: `delta_${kind}.${i}`, key: entry.key, group: `delta_${kind}`, kind: 'json', value: entry, priority: 87 - i * 0.01, overflow: 'drop' });
    }
  }
  return fields;
}

function nestDelta(context: Record<string, unknown>): Record<string, unknown> {
  if (!('delta_info' in context)) return context;
  const { delta_info, delta_added, delta_updated, delta_removed, ...rest } = context;
  return { delta: { ...(delta_info as object), added: delta_added ?? [], updated: delta_updated ?? [], removed: delta_removed ?? [] }, ...rest };
}

function deltaSection(delta: ContextDelta): Section {
  const lines = [`## Changes since ${delta.since}${delta.base ? ` (snapshot ${delta.base})` : ''}`, ''];
  for (const kind of DELTA_KINDS) {
    for (const entry of delta[kind]) lines.push(`- ${kind}: \`${entry.key}\`${entry.changed ? ` (${entry.changed.join(', ')})` : ''}`);
  }
  if (lines.length === 2) lines.push('Nothing changed.');
  return { id: 'delta', text: lines.join('\n'), priority: 96, overflow: 'trim-tail', minTokens: 20 };
}
