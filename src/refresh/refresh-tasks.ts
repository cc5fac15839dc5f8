import { fit, type PackResult, packSections, type Section } from '../budget/index.js';
import { BatonError, isBatonError } from '../errors/index.js';
import { o200kCounter } from '../tokens/index.js';
import { FORMAT_TOKEN_CAPS } from './format-budgets.js';
import { GitCache } from './git-cache.js';
import { refreshContext } from './refresh-context.js';
import { METADATA_RESERVE_TOKENS, sentTokens } from './render-context.js';
import { MAX_TASKS_PER_REFRESH, type RefreshFormat, type RefreshOptions, type RefreshResult } from './types.js';

/** Room for the dependency list, the metadata and the JSON around the contexts. */
const WRAPPER_RESERVE_TOKENS = 250;
const MAX_WARNINGS = 5;

export interface TaskContext {
  task_id: string;
  /** The task's context in the format, packed into its share of the cap. */
  context?: Record<string, unknown>;
  /** Id, status and title only: the task's share could not hold more. */
  headline?: string;
}

export interface RefreshTasksMetadata {
  format: RefreshFormat;
  /** Tokens of what is sent: the larger of the text and `structured` as JSON. */
  token_estimate: number;
  token_budget: number;
  warnings: string[];
  redactions: number;
  tasks: { requested: number; full: number; headline_only: number; omitted: number };
}

export interface RefreshTasksResult {
  contexts: TaskContext[];
  /** Dependencies among the requested tasks, and on tasks outside the set. */
  dependencies: Array<{ task_id: string; depends_on: string; status: string; in_set: boolean }>;
  metadata: RefreshTasksMetadata;
  /** `{contexts, dependencies, metadata}`: the structured form, measured against the cap. */
  structured: Record<string, unknown>;
  /** JSON of `structured` (markdown for narrative), measured against the cap. */
  text: string;
}

/**
 * Multi-task refresh (seed 002 §8.5): the tasks share the format's cap. Each task is rendered in a
 * fair share of it (its own packer keeps its most important parts), then one packer pass over all
 * of them keeps what is sent within the cap: the last-listed tasks shrink to their headline first,
 * then drop out (counted in `metadata.tasks`, with a warning). Never fails for lack of room.
 * Throws INPUT_INVALID for an empty or oversized list, NOT_FOUND for an unknown task.
 */
export async function refreshTasks(taskIds: readonly string[], options: Omit<RefreshOptions, 'taskId'>): Promise<RefreshTasksResult> {
  const ids = [...new Set(taskIds)];
  if (ids.length === 0 || ids.length > MAX_TASKS_PER_REFRESH) {
    throw new BatonError('INPUT_INVALID', `task_ids must list 1 to ${MAX_TASKS_PER_REFRESH} tasks; got ${ids.length}`, {
      details: { field: 'task_ids', value: ids.length },
    });
  }
  const format = options.format ?? 'standard';
  const cap = options.maxTokens ?? FORMAT_TOKEN_CAPS[format];
  const share = Math.max(0, Math.floor((cap - WRAPPER_RESERVE_TOKENS) / ids.length));
  // The per-task render reserves room for its own metadata, which is not sent here: give it back.
  // One git read shared by the tasks' renders (the cache's in-flight sharing), fresh for this call.
  const gitCache = options.gitCache ?? new GitCache();
  const results = await Promise.all(
    ids.map((taskId) => refreshContext({ ...options, gitCache, taskId, maxTokens: share + METADATA_RESERVE_TOKENS, sent: undefined })),
  );
  const dependencies = dependenciesOf(results, ids);
  const warnings = [...new Set(results.flatMap((r) => r.metadata.warnings))];
  const redactions = results.reduce((sum, r) => sum + r.metadata.redactions, 0);
  const depsText = JSON.stringify(dependencies, null, 1);
  // A short dependency list stays with the tasks; a long one goes first.
  const depsPriority = o200kCounter.count(depsText) <= cap / 10 ? 101 : 0;
  const common = { format, cap, maxBytes: options.sent?.maxBytes, warnings, redactions, dependencies };
  const deps: Section = { id: 'dependencies', text: depsText, priority: depsPriority, overflow: 'drop' };
  // Phase 1: every task stays; the last-listed shrink to their headline first.
  const full = fitTasks(common, results, [...results.map(taskSection), deps], false);
  if (full) return full;
  // Phase 2: headlines only; the last-listed drop out first.
  const headlines = results.map((result, i): Section => ({
    id: `task.${i}`,
    text: headlineJson(result),
    priority: 100 - i * 0.01,
    overflow: 'drop',
  }));
  const brief = fitTasks(common, results, [...headlines, deps], true);
  return brief ?? assemble(results, packSections([], { budget: 0 }), { ...common, dependencies: [] }, true);
}

type Common = {
  format: RefreshFormat;
  cap: number;
  maxBytes: number | undefined;
  warnings: string[];
  redactions: number;
  dependencies: RefreshTasksResult['dependencies'];
};

/** budget/fit over the packing of `sections`: what is sent within the cap (and the byte limit); undefined when it cannot be. */
function fitTasks(
  common: Common,
  results: readonly RefreshResult[],
  sections: readonly Section[],
  headlinesOnly: boolean,
): RefreshTasksResult | undefined {
  const maxBytes = common.maxBytes;
  try {
    const fitted = fit(
      (budget) => {
        const packed = packSections(sections, { budget, separator: '\n', exact: false });
        return { packed, result: assemble(results, packed, common, headlinesOnly) };
      },
      ({ result }) => ({
        tokens: result.metadata.token_estimate,
        bytes: maxBytes === undefined ? 0 : Buffer.byteLength(JSON.stringify(result.structured)),
      }),
      {
        caps: { tokens: common.cap, bytes: maxBytes ?? Infinity },
        budget: common.cap - WRAPPER_RESERVE_TOKENS + 100,
        spent: ({ packed }) => packed.tokens,
      },
    );
    return fitted.fits ? fitted.candidate.result : undefined;
  } catch (error) {
    if (isBatonError(error, 'BUDGET_TOO_SMALL')) return undefined;
    throw error;
  }
}

function taskSection(result: RefreshResult, index: number): Section {
  const full = JSON.stringify({ task_id: result.snapshot.task?.id ?? '', context: result.context }, null, 1);
  const summary = headlineJson(result);
  // Required with the headline as its floor: summarized, never dropped, in this phase.
  return {
    id: `task.${index}`,
    text: full,
    summary,
    priority: 100 - index * 0.01,
    overflow: 'summarize',
    required: true,
    minTokens: o200kCounter.count(summary),
  };
}

function headlineJson(result: RefreshResult): string {
  return JSON.stringify({ task_id: result.snapshot.task?.id ?? '', headline: headline(result) }, null, 1);
}

function headline(result: RefreshResult): string {
  const task = result.snapshot.task;
  return task ? `${task.id} [${task.status}] ${task.title.slice(0, 100)}` : 'unknown task';
}

function assemble(results: readonly RefreshResult[], packed: PackResult, common: Common, headlinesOnly: boolean): RefreshTasksResult {
  const kept = new Map(packed.sections.map((s) => [s.id, s]));
  const contexts: TaskContext[] = [];
  for (const [i, result] of results.entries()) {
    const section = kept.get(`task.${i}`);
    if (!section) continue;
    const taskId = result.snapshot.task?.id ?? '';
    contexts.push(
      headlinesOnly || section.action === 'summarized'
        ? { task_id: taskId, headline: headline(result) }
        : { task_id: taskId, context: result.context },
    );
  }
  const headlineOnly = contexts.filter((c) => c.headline !== undefined).length;
  const omitted = results.length - contexts.length;
  const warnings = [...common.warnings];
  if (omitted > 0 || headlineOnly > 0) {
    warnings.unshift(
      `${results.length} tasks share the ${common.format} cap of ${common.cap} tokens: ${headlineOnly} shown as a headline only, ${omitted} left out. Ask for fewer task_ids (or one task_id) for more.`,
    );
  }
  const shown =
    warnings.length > MAX_WARNINGS ? [...warnings.slice(0, MAX_WARNINGS), `(+${warnings.length - MAX_WARNINGS} more warnings)`] : warnings;
  const dependencies = kept.has('dependencies') ? common.dependencies : [];
  const metadata: RefreshTasksMetadata = {
    format: common.format,
    token_estimate: 0,
    token_budget: common.cap,
    warnings: shown,
    redactions: common.redactions,
    tasks: { requested: results.length, full: contexts.length - headlineOnly, headline_only: headlineOnly, omitted },
  };
  const build = () => {
    const structured = { contexts, dependencies, metadata } as unknown as Record<string, unknown>;
    const text = common.format === 'narrative' ? narrativeText(contexts, dependencies, metadata) : JSON.stringify(structured, null, 1);
    return { structured, text };
  };
  // The count is embedded in what it counts: settle it in at most two passes.
  let out = build();
  metadata.token_estimate = sentTokens(out.text, out.structured);
  out = build();
  const recount = sentTokens(out.text, out.structured);
  if (recount !== metadata.token_estimate) {
    metadata.token_estimate = recount;
    out = build();
  }
  return { contexts, dependencies, metadata, ...out };
}

function narrativeText(
  contexts: readonly TaskContext[],
  dependencies: RefreshTasksResult['dependencies'],
  metadata: RefreshTasksMetadata,
): string {
  const parts = contexts.map((c) => (c.context ? String(c.context.markdown ?? '') : `- ${c.headline}`));
  if (dependencies.length > 0) {
    parts.push(
      [
        '## Dependencies',
        '',
        ...dependencies.map((d) => `- ${d.task_id} depends on ${d.depends_on} (${d.status}${d.in_set ? '' : ', not in this set'})`),
      ].join('\n'),
    );
  }
  const footer = `_format ${metadata.format}, ${metadata.token_estimate} tokens, ${metadata.tasks.requested} tasks${metadata.warnings.length > 0 ? `; ${metadata.warnings[0]}` : ''}_`;
  return `${parts.join('\n\n---\n\n')}\n\n---\n${footer}\n`;
}

function dependenciesOf(results: readonly RefreshResult[], ids: readonly string[]): RefreshTasksResult['dependencies'] {
  const status = new Map<string, string>();
  for (const result of results) {
    const task = result.snapshot.task;
    if (task) status.set(task.id, task.status);
    for (const dep of result.snapshot.dependencies) if (!status.has(dep.id)) status.set(dep.id, dep.status);
  }
  return results.flatMap((result) =>
    (result.snapshot.task?.dependsOn ?? []).map((dep) => ({
      task_id: result.snapshot.task?.id ?? '',
      depends_on: dep,
      status: status.get(dep) ?? 'unknown',
      in_set: ids.includes(dep),
    })),
  );
}
