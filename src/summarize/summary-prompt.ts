/** Version of the summary prompt below; part of every LLM summary's cache key. */
export const SUMMARY_PROMPT_VERSION = '1.0.0';

/**
 * The dedicated summary prompt (seed 003). It asks for what duplicate prevention needs: the
 * topics an answer covered and its key recommendations, not a retelling.
 */
export const SUMMARY_SYSTEM_PROMPT = [
  'You summarize one expert answer so that other experts answering the same question after it know what it already covered and do not repeat it.',
  'Keep: every topic the answer covered, its key recommendations and conclusions, and any specific numbers, names or steps it gave.',
  'Drop: examples, repetition, pleasantries and explanations of why.',
  'Write plain, compact bullet points in the language of the answer. Do not add anything the answer did not say. Do not address the reader.',
].join('\n');

/** The user message of a summary request: the length to aim for, then the answer itself. */
export function buildSummaryRequest(text: string, targetTokens: number): string {
  const words = Math.max(10, Math.round(targetTokens * 0.75));
  return `Summarize the answer below in at most about ${words} words (${targetTokens} tokens, 20-30% of its length).\n\n<answer>\n${text}\n</answer>`;
}
