import type { Section } from '../budget/index.js';
import { blockers, formatAge } from './continuation-state.js';
import type { ContextSnapshot } from './types.js';

/** Markdown sections of the narrative format (seed 002 §2.4), highest priority kept longest. Pure. */
export function buildNarrativeSections(snapshot: ContextSnapshot, now: number): Section[] {
  // The order is the order of the sections in the markdown; a section with only blanks is left out.
  return [
    headerSection(snapshot),
    snapshot.task ? currentTaskSection(snapshot.task) : activeTasksSection(snapshot),
    activitySection(snapshot, now),
    attemptsSection(snapshot),
    gitSection(snapshot),
    blockersSection(snapshot),
    workflowSection(snapshot),
    readmeSection(snapshot),
    warningsSection(snapshot),
  ].filter((section): section is Section => section !== undefined && section.text.trim() !== '');
}

function headerSection(snapshot: ContextSnapshot): Section {
  return {
    id: 'header',
    text: [
      '# Session Context Summary',
      '',
      `**Workspace**: \`${snapshot.workspace}\``,
      `**Generated**: ${new Date(snapshot.generatedAt).toISOString()}`,
    ].join('  \n'),
    priority: 100,
    required: true,
  };
}

function currentTaskSection(task: NonNullable<ContextSnapshot['task']>): Section {
  return {
    id: 'task',
    text: [
      '## Current Task',
      '',
      `You are working on **Task ${task.id}** (Priority: ${task.priority}${task.difficulty ? `, Difficulty: ${task.difficulty}` : ''})`,
      '',
      `> ${task.title}`,
      '',
      `**Status**: ${task.status}  `,
      `**Mode**: ${task.mode ?? 'unspecified'}  `,
      `**Created**: ${new Date(task.createdAt).toISOString().slice(0, 10)}`,
      task.intent ? `\n${task.intent}` : '',
    ].join('\n'),
    priority: 98,
    required: true,
    overflow: 'trim-tail',
    minTokens: 40,
  };
}

/** Without a current task, the open tasks take its place. */
function activeTasksSection(snapshot: ContextSnapshot): Section {
  return {
    id: 'task',
    text: [
      '## Active Tasks',
      '',
      ...(snapshot.activeTasks.length > 0
        ? snapshot.activeTasks.map((t) => `- **${t.id}** (${t.status}, priority ${t.priority}): ${t.title}`)
        : ['No active tasks.']),
    ].join('\n'),
    priority: 98,
    required: true,
    overflow: 'trim-tail',
    minTokens: 20,
  };
}

function activitySection(snapshot: ContextSnapshot, now: number): Section {
  const git = snapshot.git;
  const last = snapshot.dispatches[0];
  return {
    id: 'activity',
    text: [
      '## Recent Activity',
      '',
      `- **Last Dispatch**: ${last ? `${last.id} (${last.status}${last.claimedBy ? `, claimed by ${last.claimedBy}` : ''}${last.model ? `, model ${last.model}` : ''})` : 'none'}`,
      `- **Last Commit**: ${git?.recentCommits[0] ? `${formatAge(now - git.recentCommits[0].at)} ("${git.recentCommits[0].subject}")` : 'unknown'}`,
      `- **Uncommitted Changes**: ${git ? `${git.uncommitted} files modified, ${git.staged} staged` : 'unknown (no git)'}`,
    ].join('\n'),
    priority: 95,
    required: true,
  };
}

/** Every attempt, one line each; only when there was more than one. */
function attemptsSection(snapshot: ContextSnapshot): Section | undefined {
  if (snapshot.dispatches.length <= 1) return undefined;
  return {
    id: 'dispatches',
    text: [
      '### Attempts',
      '',
      ...snapshot.dispatches.map(
        (d) =>
          `- ${d.id}: attempt ${d.attempt} on ${d.provider}, ${d.status}${d.outcome ? ` (${d.outcome})` : ''}${d.result ? ` — ${d.result.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`,
      ),
    ].join('\n'),
    priority: 70,
    overflow: 'trim-tail',
  };
}

function gitSection(snapshot: ContextSnapshot): Section | undefined {
  const git = snapshot.git;
  if (!git) return undefined;
  return {
    id: 'git',
    text: [
      '## Git Status',
      '',
      `**Branch**: \`${git.branch ?? '(detached)'}\``,
      '',
      '**Recent Commits**:',
      ...git.recentCommits.map((c, i) => `${i + 1}. ${c.sha.slice(0, 7)} ${c.subject}`),
      '',
      '**Modified Files**:',
      ...(git.changedFiles.length > 0
        ? git.changedFiles.map(
            (f) =>
              `- \`${f.path}\` ${f.status === '??' ? '(new)' : f.added !== undefined ? `(+${f.added} -${f.deleted ?? 0})` : `(${f.status})`}`,
          )
        : ['- none']),
    ].join('\n'),
    priority: 80,
    overflow: 'trim-tail',
    minTokens: 30,
  };
}

/** Blockers, then up to eight tech-debt items. */
function blockersSection(snapshot: ContextSnapshot): Section | undefined {
  const blockerList = blockers(snapshot);
  const debt = snapshot.debt.slice(0, 8);
  if (blockerList.length === 0 && debt.length === 0) return undefined;
  return {
    id: 'blockers',
    text: ['## Known Blockers', ...blockerList.map((b) => `⚠️ ${b}`), ...debt.map(debtEntry)].join('\n\n'),
    priority: 85,
    overflow: 'trim-tail',
    minTokens: 30,
  };
}

function debtEntry(d: ContextSnapshot['debt'][number]): string {
  return [
    `⚠️ **Tech Debt ${d.id}**: ${d.data.title}`,
    d.data.impact ? `- **Impact**: ${d.data.impact}` : '',
    d.data.category ? `- **Category**: ${d.data.category}` : '',
    d.data.proposedSolution ? `- **Proposed Solution**: ${d.data.proposedSolution}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function workflowSection(snapshot: ContextSnapshot): Section | undefined {
  const workflow = snapshot.workflow;
  if (!workflow?.active) return undefined;
  return {
    id: 'workflow',
    text: `## Workflow\n\n**${workflow.active}**${workflow.phase ? `, current phase: ${workflow.phase}` : ''}`,
    priority: 60,
  };
}

function readmeSection(snapshot: ContextSnapshot): Section | undefined {
  const readme = snapshot.artifacts?.readme;
  if (!readme) return undefined;
  return { id: 'readme', text: `## Task README\n\n${readme}`, priority: 30, overflow: 'trim-tail' };
}

function warningsSection(snapshot: ContextSnapshot): Section | undefined {
  if (snapshot.warnings.length === 0) return undefined;
  return {
    id: 'warnings',
    text: `## Warnings\n\n${snapshot.warnings.map((w) => `- ${w}`).join('\n')}`,
    priority: 97,
    overflow: 'trim-tail',
  };
}
