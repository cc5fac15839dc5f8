const DECISION =
  /\b(the (issue|problem|bug|error|cause|fix) (is|was|seems|appears|lies)|root cause|decid|instead of|we should|i should|we need to|i need to|the solution|the fix)\b/i;
const MIN_CHARS = 25;
const MAX_CHARS = 240;

/**
 * Picks sentences from a model turn that state a finding or a decision ("the issue is ...",
 * "we should ..."). Deterministic and offline; the wording rules are the whole model. Pure.
 */
export function extractDecisions(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, ' ');
  const out: string[] = [];
  for (const raw of prose.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.replace(/\s+/g, ' ').trim();
    if (sentence.length < MIN_CHARS || !DECISION.test(sentence)) continue;
    out.push(sentence.length > MAX_CHARS ? `${sentence.slice(0, MAX_CHARS)}…` : sentence);
  }
  return out;
}
