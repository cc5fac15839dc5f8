/** Seed 000: the helper sees at most 5000 characters of the agent's response. */
export const HELPER_RESPONSE_MAX_CHARS = 5000;

export interface HelperPromptInput {
  /** What the main agent answered (its final text). */
  agentResponse: string;
  /** The criteria the helper must write verification commands for. */
  failedCriteria: readonly string[];
  /** The workspace the commands will run in. */
  workingDirectory: string;
  /** Files the attempt measurably touched, to point the helper at real code. */
  codeFiles: readonly string[];
}

/**
 * Builds seed 000's enhanced helper agent prompt. The helper must answer with JSON verification
 * commands that Baton runs (`{"commands":[{"criterion":1,"command":"..."}]}`). Pure; the
 * HELPER AGENT CONTEXT is prepended by the caller.
 */
export function buildHelperPrompt(input: HelperPromptInput): string {
  const response = input.agentResponse.slice(0, HELPER_RESPONSE_MAX_CHARS) || '(no response text)';
  const files = input.codeFiles.length > 0 ? input.codeFiles.slice(0, 20).join(', ') : '(none measured)';
  return [
    '## Enhanced Verification Task',
    'You are a Helper Agent. Your task is to VERIFY, not assume.',
    '',
    '**Context:**',
    `- Working Directory: ${input.workingDirectory}`,
    `- Code Files: ${files}`,
    '',
    '**Failed Criteria:**',
    ...input.failedCriteria.map((criterion, i) => `${i + 1}. ${criterion}`),
    '',
    '**Agent Response:**',
    response,
    '',
    '**Verification Rules:**',
    '- Write one shell command per criterion that exits 0 only when the criterion holds.',
    '- Check real files and behaviour in the working directory; never trust the agent response.',
    '- Commands must be read-only and finish quickly.',
    '',
    '**Output Format:**',
    'Answer with one JSON object on its own line, and nothing after it:',
    '{"commands":[{"criterion":1,"command":"test -f README.md","description":"README exists"}]}',
    '',
  ].join('\n');
}
