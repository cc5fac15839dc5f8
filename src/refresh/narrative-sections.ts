import type { Section } from '../budget/index.js';
import { blockers, formatAge } from './continuation-state.js';
import type { ContextSnapshot } from './types.js';

/** Markdown sections of the narrative format (seed 002 §2.4), highest priority kept longest. Pure. */
export function buildNarrativeSections(snapshot: ContextSnapshot, now: number): Section[] {
  const task = snapshot.task;
  const git = snapshot.git;
  const last = snapshot.dispatches[0];
  const sections: Section[] = [];
  const add = (id: string, text: string, priority: number, extra: Partial<Section> = {}) => {
    if (text.trim()) sections.push({ id, text, priority, ...extra });
  };
  add(
    'header',
    [
      '# Session Context Summary',
      '',
      `**Workspace**: \`${snapshot.workspace}\``,
      `**Generated**: ${new Date(snapshot.generatedAt).toISOString()}`,
    ].join('  \n'),
    100,
    { required: true },
  );
  if (task) {
    add(
      'task',
      [
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
      98,
      { required: true, overflow: 'trim-tail', minTokens: 40 },
    );
  } else {
    add(
      'task',
      [
        '## Active Tasks',
        '',
        ...(snapshot.activeTasks.length > 0
          ? snapshot.activeTasks.map((t) => `- **${t.id}** (${t.status}, priority ${t.priority}): ${t.title}`)
          : ['No active tasks.']),
      ].join('\n'),
      98,
      { required: true, overflow: 'trim-tail', minTokens: 20 },
    );
  }
  add(
    'activity',
    [
      '## Recent Activity',
      '',
      `- **Last Dispatch**: ${last ? `${last.id} (${last.status}${last.claimedBy ? `, claimed by ${last.claimedBy}` : ''}${last.model ? `, model ${last.model}` : ''})` : 'none'}`,
      `- **Last Commit**: ${git?.recentCommits[0] ? `${formatAge(now - git.recentCommits[0].at)} ("${git.recentCommits[0].subject}")` : 'unknown'}`,
      `- **Uncommitted Changes**: ${git ? `${git.uncommitted} files modified, ${git.staged} staged` : 'unknown (no git)'}`,
    ].join('\n'),
    95,
    { required: true },
  );
  if (snapshot.dispatches.length > 1) {
    add(
      'dispatches',
      [
        '### Attempts',
        '',
        ...snapshot.dispatches.map(
          (d) =>
            `- ${d.id}: attempt ${d.attempt} on ${d.provider}, ${d.status}${d.outcome ? ` (${d.outcome})` : ''}${d.result ? ` — ${d.result.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`,
        ),
      ].join('\n'),
      70,
      { overflow: 'trim-tail' },
    );
  }
  if (git) {
    add(
      'git',
      [
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
      80,
      { overflow: 'trim-tail', minTokens: 30 },
    );
  }
  const blockerList = blockers(snapshot);
  const debt = snapshot.debt.slice(0, 8);
  if (blockerList.length > 0 || debt.length > 0) {
    add(
      'blockers',
      [
        '## Known Blockers',
        ...blockerList.map((b) => `⚠️ ${b}`),
        ...debt.map((d) =>
          [
            `⚠️ **Tech Debt ${d.id}**: ${d.data.title}`,
            d.data.impact ? `- **Impact**: ${d.data.impact}` : '',
            d.data.category ? `- **Category**: ${d.data.category}` : '',
            d.data.proposedSolution ? `- **Proposed Solution**: ${d.data.proposedSolution}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        ),
      ].join('\n\n'),
      85,
      { overflow: 'trim-tail', minTokens: 30 },
    );
  }
  if (snapshot.workflow?.active) {
    add(
      'workflow',
      `## Workflow\n\n**${snapshot.workflow.active}**${snapshot.workflow.phase ? `, current phase: ${snapshot.workflow.phase}` : ''}`,
      60,
    );
  }
  if (snapshot.artifacts?.readme) add('readme', `## Task README\n\n${snapshot.artifacts.readme}`, 30, { overflow: 'trim-tail' });
  if (snapshot.warnings.length > 0) {
    add('warnings', `## Warnings\n\n${snapshot.warnings.map((w) => `- ${w}`).join('\n')}`, 97, { overflow: 'trim-tail' });
  }
  return sections;
}
