import type { MinimalState, PromptTask } from './types.js';

export interface TaskPromptOptions {
  /** The folder the agent works in, shown in the Working Directory section. */
  workingDirectory: string;
}

const RULES = [
  '- Work only inside the working directory below.',
  '- The READ-ONLY CONTEXT is for reference: do not modify it, do not redo recent_history work,',
  '  and do not build on tasks listed in active_blockers.',
  '- Meet every acceptance criterion; Baton checks them itself and measures the files you change.',
  '- Do not claim work you did not do.',
];

const OUTPUT_FORMAT = ['End with a short plain-text summary of what you changed and why.', 'If you cannot finish, say what blocked you.'];

/**
 * Builds seed 000's task prompt: Task ID, Task Description, Intent, Acceptance Criteria, the
 * READ-ONLY CONTEXT (seed 001's recent_history and active_blockers, always), rules, output format
 * and working directory. Pure. Pre-context blocks are prepended by the caller, never built here.
 *
 * @example
 * buildTaskPrompt(task, await loadPromptState(ledger, { window: 5 }), { workingDirectory })
 */
export function buildTaskPrompt(task: PromptTask, state: MinimalState, options: TaskPromptOptions): string {
  const criteria =
    task.acceptanceCriteria.length > 0
      ? task.acceptanceCriteria.map((c) => `- ${c.description}`).join('\n')
      : '- (none given: complete the task as described)';
  const sections = [
    ['## Task ID', task.id],
    ['## Task Description', task.instructions || task.title || task.id],
    ['## Intent', task.intent || task.title || '(not stated)'],
    ['## Acceptance Criteria', criteria],
    ['## READ-ONLY CONTEXT — DO NOT MODIFY', JSON.stringify(state, null, 2)],
    ['## Rules', RULES.join('\n')],
    ['## Output Format', OUTPUT_FORMAT.join('\n')],
    ['## Working Directory', options.workingDirectory],
  ];
  return `${sections.map(([heading, body]) => `${heading}\n${body}`).join('\n\n')}\n`;
}
