/** What an echoed prompt is replaced with, so a reason still reads as the CLI's sentence. */
export const PROMPT_PLACEHOLDER = '<prompt>';

/**
 * The text with Baton's own prompt taken out, so failure phrases are matched only against what
 * the CLI said: claude's usage error echoed the whole prompt, whose PROVIDER SWITCH block said
 * "failed: rate_limited", and that classified a usage error as a rate limit. Removes the whole
 * prompt (as sent, and JSON-escaped as event streams echo it) and every output line that is,
 * trimmed, a whole line of the prompt (an echo cut into lines). Pure.
 */
export function stripEchoedPrompt(text: string, prompt: string | undefined): string {
  if (prompt === undefined || prompt.trim() === '' || text === '') return text;
  let out = text;
  for (const form of [prompt, JSON.stringify(prompt).slice(1, -1), prompt.trim()]) {
    if (form !== '') out = out.split(form).join(PROMPT_PLACEHOLDER);
  }
  const promptLines = new Set(
    prompt
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
  return out
    .split('\n')
    .filter((line) => !promptLines.has(line.trim()))
    .join('\n');
}
