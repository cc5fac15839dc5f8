import { packSections, type Section } from '../budget/index.js';
import { sessionNextStep } from '../hooks/index.js';
import type { TokenCounter } from '../tokens/index.js';
import { blockers, detectContinuationState, formatAge, isFailure } from './continuation-state.js';
import type { ContextSnapshot } from './types.js';

export interface ContinuationPromptOptions {
  /** Hard cap in tokens. */
  maxTokens: number;
  /** Reference time for "last activity … ago". */
  now: number;
  counter?: TokenCounter;
}

const MAX_LISTED_FILES = 20;

/**
 * Builds seed 002's self-contained continuation prompt (§3.1 template) with the §3.3 block that
 * fits the task's state, ending with a verification checklist from the acceptance criteria. The
 * optional parts (files, commits, README excerpt, workflow) shrink first; the header, the
 * instructions and the checklist are required. Pure.
 */
export function buildContinuationPrompt(snapshot: ContextSnapshot, options: ContinuationPromptOptions): string {
  const { now } = options;
  const task = snapshot.task;
  const last = snapshot.dispatches[0];
  const lastActivity = Math.max(task?.updatedAt ?? 0, last?.finishedAt ?? last?.startedAt ?? 0);
  const state = detectContinuationState(snapshot);
  const sections: Section[] = [
    task
      ? section('header', taskHeader(snapshot, task, now, lastActivity), 100, { required: true, overflow: 'trim-tail', minTokens: 60 })
      : section('header', noTaskHeader(snapshot), 100, { required: true }),
    ...gitSections(snapshot, now),
    ...(task ? taskSections(snapshot, task) : []),
    section('instructions', `## Continuation Instructions\n\n${instructions(snapshot, state, now, lastActivity)}`, 95, {
      required: true,
      minTokens: 40,
    }),
    section('checklist', `**Verification Checklist**:\n${checklist(snapshot)}`, 99, {
      required: true,
      overflow: 'trim-tail',
      minTokens: 30,
    }),
  ];
  // Sections with nothing to say are left out rather than packed empty.
  const said = sections.filter((s) => s.text.trim() !== '');
  return packSections(said, { budget: options.maxTokens, counter: options.counter }).text;
}

function section(id: string, text: string, priority: number, extra: Partial<Section> = {}): Section {
  return { id, text, priority, ...extra };
}

function taskHeader(snapshot: ContextSnapshot, task: NonNullable<ContextSnapshot['task']>, now: number, lastActivity: number): string {
  return [
    '# Session Continuation',
    '',
    '## Context Restoration',
    '',
    opening(task),
    '',
    '**Previous Session Summary**:',
    previousSummary(snapshot),
    '',
    '**Current State**:',
    `- Status: ${task.status}`,
    `- Priority: ${task.priority}`,
    `- Mode: ${task.mode ?? 'unspecified'}`,
    `- Last Activity: ${lastActivity ? `${new Date(lastActivity).toISOString()} (${formatAge(now - lastActivity)})` : 'none recorded'}`,
  ].join('\n');
}

/** The header's first line: a finished task is reviewed, not resumed. */
function opening(task: NonNullable<ContextSnapshot['task']>): string {
  if (task.status === 'completed') return `Task **${task.title}** (Task ID: ${task.id}) is completed.`;
  if (task.status === 'archived') return `Task **${task.title}** (Task ID: ${task.id}) is archived.`;
  return `You are resuming work on **${task.title}** (Task ID: ${task.id}).`;
}

/** Branch and change counts, the modified files and the recent commits. */
function gitSections(snapshot: ContextSnapshot, now: number): Section[] {
  const git = snapshot.git;
  if (!git) return [];
  const status = [
    '## Work In Progress',
    '',
    '**Git Status**:',
    `- Branch: ${git.branch ?? '(detached HEAD)'}`,
    `- Uncommitted Changes: ${git.uncommitted} files`,
    `- Staged Files: ${git.staged} files`,
    `- Diff: ${git.diffSummary}`,
  ].join('\n');
  const sections = [section('git', status, 90)];
  if (git.changedFiles.length > 0) sections.push(section('files', `**Modified Files**:\n${modifiedFiles(snapshot)}`, 50));
  if (git.recentCommits.length > 0) {
    const commits = git.recentCommits
      .slice(0, 5)
      .map((c) => `- ${c.sha.slice(0, 7)} ${c.subject} (${formatAge(now - c.at)})`)
      .join('\n');
    sections.push(section('commits', `**Recent Commits**:\n${commits}`, 45));
  }
  return sections;
}

/** The task's objective and requirements, its README, its workflow and its constraints. */
function taskSections(snapshot: ContextSnapshot, task: NonNullable<ContextSnapshot['task']>): Section[] {
  const expected =
    task.acceptanceCriteria.length > 0
      ? 'work that satisfies every item of the verification checklist below'
      : (task.resultSummary ?? 'see the requirements above');
  const context = [
    '## Task Context',
    '',
    `**Objective**: ${task.intent || task.title}`,
    '',
    '**Requirements** (from the task):',
    task.instructions || '(no instructions recorded)',
    '',
    `**Expected Output**: ${expected}`,
  ].join('\n');
  const sections = [section('task', context, 70, { overflow: 'trim-tail', minTokens: 40 })];
  if (snapshot.artifacts?.readme)
    sections.push(section('readme', `**Task README** (${snapshot.artifacts.dir}/README.md):\n${snapshot.artifacts.readme}`, 30));
  const workflow = snapshot.workflow;
  if (workflow?.active) {
    sections.push(section('workflow', `**Workflow**: ${workflow.active}${workflow.phase ? `, current phase: ${workflow.phase}` : ''}`, 60));
  }
  sections.push(section('constraints', constraints(snapshot), 80, { overflow: 'trim-tail' }));
  return sections;
}

function noTaskHeader(snapshot: ContextSnapshot): string {
  const lines = ['# Session Continuation', '', '## Context Restoration', '', 'No task is active in this workspace.'];
  if (snapshot.activeTasks.length > 0) {
    lines.push('', '**Open tasks**:');
    for (const t of snapshot.activeTasks.slice(0, 5)) lines.push(`- ${t.id} (${t.status}, priority ${t.priority}): ${t.title}`);
  }
  return lines.join('\n');
}

function previousSummary(snapshot: ContextSnapshot): string {
  const attempts = snapshot.dispatches;
  if (attempts.length === 0) return 'No earlier attempt is recorded for this task.';
  const failed = attempts.filter(isFailure).length;
  const last = attempts[0];
  const files = new Set(attempts.flatMap((d) => [...d.filesCreated, ...d.filesUpdated]));
  return [
    `${attempts.length} recent attempt(s), ${failed} failed.`,
    last
      ? `Last: dispatch ${last.id} (attempt ${last.attempt}, ${last.provider}${last.model ? `/${last.model}` : ''}) ${last.status}${last.outcome ? ` [${last.outcome}]` : ''}${last.result ? `: ${oneLine(last.result, 300)}` : ''}`
      : '',
    files.size > 0
      ? `Files touched so far: ${[...files].slice(0, 10).join(', ')}${files.size > 10 ? ` and ${files.size - 10} more` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function modifiedFiles(snapshot: ContextSnapshot): string {
  const git = snapshot.git;
  if (!git) return '';
  // §3.2: list files when fewer than 20, otherwise summarize.
  if (git.uncommitted >= MAX_LISTED_FILES) {
    const dirs = new Map<string, number>();
    for (const file of git.changedFiles) {
      const dir = file.path.includes('/') ? file.path.slice(0, file.path.indexOf('/')) : '.';
      dirs.set(dir, (dirs.get(dir) ?? 0) + 1);
    }
    return `${git.uncommitted} files changed (${git.diffSummary}); by top folder: ${[...dirs]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([dir, n]) => `${dir} (${n})`)
      .join(', ')}`;
  }
  return git.changedFiles
    .map((f) => `- ${f.path} [${f.status}]${f.added !== undefined ? ` (+${f.added} -${f.deleted ?? 0})` : ''}`)
    .join('\n');
}

function constraints(snapshot: ContextSnapshot): string {
  const debt = snapshot.debt.slice(0, 5).map((d) => `- ${d.id}: ${d.data.title}${d.data.impact ? ` (impact: ${d.data.impact})` : ''}`);
  const deps = snapshot.dependencies.map((d) => `- ${d.id} "${d.title}": ${d.status}`);
  return [
    '## Known Constraints',
    '',
    '**Tech Debt / Blockers**:',
    debt.length > 0 ? debt.join('\n') : '- none recorded',
    '',
    '**Dependencies**:',
    deps.length > 0 ? deps.join('\n') : '- none',
  ].join('\n');
}

function instructions(
  snapshot: ContextSnapshot,
  state: ReturnType<typeof detectContinuationState>,
  now: number,
  lastActivity: number,
): string {
  const title = snapshot.task?.title ?? '';
  switch (state) {
    case 'no_task':
      return noTaskInstructions(snapshot);
    case 'completed':
      return completedInstructions(snapshot);
    case 'just_started':
      return [
        `You are starting work on ${title}. This is a fresh task with no prior progress.`,
        '',
        '**First Steps**:',
        '1. Review the task requirements in detail',
        '2. Check for related research or tech debt',
        '3. Create a plan or outline',
        '4. Begin implementation/research',
      ].join('\n');
    case 'blocked':
      return [
        `You are resuming work on ${title}, but there are blockers.`,
        '',
        '**Blockers**:',
        ...blockers(snapshot).map((b) => `- ${b}`),
        '',
        '**Options**:',
        '1. Work around the blocker (if possible)',
        '2. Address the blocker first (if within scope)',
        '3. Escalate to orchestrator (if blocker is external)',
      ].join('\n');
    case 'failed_attempt': {
      const failed = snapshot.dispatches[0];
      const touched = failed ? [...failed.filesCreated, ...failed.filesUpdated] : [];
      return [
        `You are resuming work on ${title} after a failed attempt.`,
        '',
        '**Previous Attempt**:',
        `- Dispatch: ${failed?.id ?? 'unknown'} (attempt ${failed?.attempt ?? '?'}, ${failed?.provider ?? '?'})`,
        `- Error: ${oneLine(failed?.validationErrors.join('; ') || failed?.result || failed?.outcome || failed?.status || 'unknown', 400)}`,
        `- Attempted: ${touched.length > 0 ? `changed ${touched.slice(0, 8).join(', ')}` : 'no file changes recorded'}`,
        '',
        '**Recovery Strategy**:',
        RECOVERY.get(failed?.outcome ?? '') ?? DEFAULT_RECOVERY,
      ].join('\n');
    }
    case 'resumed_after_break':
      return [
        `You are resuming work on ${title} after a break. Last activity was ${lastActivity ? formatAge(now - lastActivity) : 'not recorded'}.`,
        '',
        '**Context Refresh**:',
        `- Previous work: ${previousSummary(snapshot).split('\n')[0]}`,
        `- Current state: ${snapshot.git ? `${snapshot.git.uncommitted} uncommitted file(s) on ${snapshot.git.branch ?? 'detached HEAD'}` : 'git state unknown'}`,
        '',
        '**Resume From**:',
        snapshot.git && snapshot.git.uncommitted > 0
          ? 'Review the uncommitted changes listed above, finish them, then run the checklist.'
          : 'Continue from the last recorded step; verify with the checklist before reporting completion.',
      ].join('\n');
  }
}

/** No task: the newest agent session's urgent next step (a failure, a cut-off turn) comes first. */
function noTaskInstructions(snapshot: ContextSnapshot): string {
  const pick = 'Pick the next task: take the highest-priority open task above, or create one, then call refresh_context with its task_id.';
  const fromSession = sessionNextStep(snapshot.agentSessions ?? []);
  if (!fromSession) return pick;
  const client = snapshot.agentSessions?.find((record) => record.data.turns > 0 || record.data.lastPrompt !== undefined)?.data.client;
  return [`**Next Step** (from the latest ${client ?? 'agent'} session): ${fromSession}`, '', `Then: ${pick}`].join('\n');
}

/** A finished task: what it produced, and what to do instead of resuming it. */
function completedInstructions(snapshot: ContextSnapshot): string {
  const task = snapshot.task;
  const open = snapshot.activeTasks.filter((t) => t.id !== task?.id).slice(0, 3);
  return [
    `This task is ${task?.status ?? 'completed'}: there is no work to resume on it.${task?.resultSummary ? ` Result: ${oneLine(task.resultSummary, 300)}` : ''}`,
    '',
    '**What Now**:',
    '1. If you were asked to review it, check its result against the verification checklist below',
    open.length > 0
      ? `2. Otherwise pick the next open task (${open.map((t) => t.id).join(', ')}) and call refresh_context with its task_id`
      : '2. Otherwise pick or create the next task, then call refresh_context with its task_id',
  ].join('\n');
}

/** What to change after a failed attempt, by its outcome. */
const PROVIDER_FAILED = 'The provider failed, not the approach: continue the same plan.';
const RECOVERY = new Map<string, string>([
  ['validation_failed', 'Fix the failing acceptance criteria named in the error first; keep the parts that already pass.'],
  ['timeout', 'Split the work into smaller steps and commit progress between them.'],
  ['context_window', 'Work on fewer files at once; read only what the next step needs.'],
  ['rate_limited', PROVIDER_FAILED],
  ['quota_exhausted', PROVIDER_FAILED],
  ['overloaded', PROVIDER_FAILED],
]);
const DEFAULT_RECOVERY = 'Read the error, reproduce it locally, and change the approach that caused it before retrying.';

function checklist(snapshot: ContextSnapshot): string {
  const criteria = snapshot.task?.acceptanceCriteria ?? [];
  if (criteria.length === 0) {
    return snapshot.task
      ? "- [ ] The task's requirements above are met\n- [ ] Changes are committed or described in the dispatch result"
      : '- [ ] A task is chosen and its context refreshed';
  }
  return criteria.map((c) => `- [ ] ${c.description}${c.check ? ` (check: \`${c.check}\`)` : ''}`).join('\n');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
