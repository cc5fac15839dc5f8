// Seed 003's duplicate-prevention instructions, appended to a later agent's system prompt when it
// receives earlier answers. Changing this text changes answers: say so in CHANGELOG.md.

/**
 * Returns `systemPrompt` followed by the instructions naming the earlier agents. Pure. With no
 * earlier agents the prompt is returned unchanged: the first agent's prompt never changes, and
 * an agent that received nothing cannot avoid repeating it.
 */
export function withDuplicatePrevention(systemPrompt: string, earlierAgents: readonly string[]): string {
  if (earlierAgents.length === 0) return systemPrompt;
  const names = earlierAgents.join(', ');
  return [
    systemPrompt,
    '',
    '## Answering after other experts',
    `Other experts (${names}) have already answered this question; their answers, or summaries of them, come before the question.`,
    '- Do not repeat information, advice or explanations they already covered.',
    '- Focus on your own area of expertise.',
    '- Complement their answers: add what is missing from your perspective.',
    '- Where it helps, briefly acknowledge what was already covered instead of restating it.',
  ].join('\n');
}
