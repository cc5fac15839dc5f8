import { o200kCounter, type TokenCounter, truncateToTokens } from '../tokens/index.js';
import { summaryTargetTokens } from './summary-target.js';
import type { SummarizeRequest, Summarizer } from './types.js';
import { extractiveSchema } from './summarizer-options-schema.js';
import { parseInput } from '../util/index.js';

/** Id of the extractive summarizer in cache keys; bump the version when the scoring changes. */
export const EXTRACTIVE_SUMMARIZER_ID = 'extractive@1';

const STOPWORDS = new Set(
  'a an and are as at be but by can do for from has have how i if in into is it its may more most not of on or so than that the their them then there these they this to was we what when which while will with you your should would could also just very'.split(
    ' ',
  ),
);

interface Unit {
  index: number;
  text: string;
  /** Starts a new line in the output (headings, list items, paragraph starts). */
  breakBefore: boolean;
  heading: boolean;
  score: number;
  tokens: number;
}

/**
 * Summarizes by extraction: keeps the highest-scoring sentences (headings, paragraph openings,
 * list items, sentences dense in the text's frequent words) in their original order until the
 * target is reached. Offline and deterministic: the same text and target always give the same
 * summary. Returns the text unchanged when it is already within the target; the result never
 * exceeds `targetTokens` by the given counter.
 *
 * @example
 * summarizeExtractive(longAnswer, { targetTokens: 120 });
 */
export function summarizeExtractive(text: string, options: { targetTokens?: number; counter?: TokenCounter } = {}): string {
  const counter = options.counter ?? o200kCounter;
  const target = options.targetTokens ?? summaryTargetTokens(text, counter);
  if (counter.count(text) <= target) return text;
  const units = splitUnits(text, counter);
  scoreUnits(units);
  const chosen = new Set<number>();
  let used = 0;
  for (const unit of [...units].sort((a, b) => b.score - a.score || a.index - b.index)) {
    // +1 for the joining space or newline.
    if (used + unit.tokens + 1 > target) continue;
    chosen.add(unit.index);
    used += unit.tokens + 1;
  }
  const picked = units.filter((unit) => chosen.has(unit.index));
  if (picked.length === 0) return truncateToTokens(units[0]?.text ?? text, target, 'head');
  const joined = picked.map((unit, i) => (i === 0 ? '' : unit.breakBefore ? '\n' : ' ') + unit.text).join('');
  // Joined text can tokenize a little longer than its parts; the cap must hold exactly.
  return counter.count(joined) <= target ? joined : truncateToTokens(joined, target, 'head');
}

/** The extractive summarizer behind the `Summarizer` interface (never fails, never calls out). */
export function createExtractiveSummarizer(options: { counter?: TokenCounter } = {}): Summarizer {
  parseInput(extractiveSchema, options, { what: 'createExtractiveSummarizer options' });
  return {
    id: EXTRACTIVE_SUMMARIZER_ID,
    summarize: async (text: string, request: SummarizeRequest = {}) =>
      summarizeExtractive(text, { targetTokens: request.targetTokens, counter: options.counter }),
  };
}

function splitUnits(text: string, counter: TokenCounter): Unit[] {
  const units: Unit[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    // The first sentence of a paragraph, or right after a heading, usually states its point.
    let opening = true;
    for (const line of paragraph.split('\n')) {
      const trimmed = line.trim();
      if (!trimmed) continue;
      const heading = /^#{1,6}\s/.test(trimmed);
      const structural = heading || /^([-*+]\s|\d+[.)]\s)/.test(trimmed);
      const sentences = structural ? [trimmed] : trimmed.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/);
      const afterHeading = units.at(-1)?.heading === true;
      sentences.forEach((sentence, i) => {
        units.push({
          index: units.length,
          text: sentence,
          breakBefore: opening || afterHeading || (structural && i === 0),
          heading,
          score: (opening ? 2 : 0) + (heading ? 3 : 0) + (structural ? 1 : 0),
          tokens: counter.count(sentence),
        });
        opening = heading;
      });
    }
  }
  return units;
}

/** Adds term-frequency density: sentences made of the text's recurring words carry its topics. */
function scoreUnits(units: Unit[]): void {
  const frequency = new Map<string, number>();
  const wordsOf = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOPWORDS.has(w));
  for (const unit of units) for (const word of wordsOf(unit.text)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const top = Math.max(1, ...frequency.values());
  for (const unit of units) {
    const words = wordsOf(unit.text);
    if (words.length === 0) continue;
    const density = words.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0) / (words.length * top);
    unit.score += density * 4 - (unit.index === 0 ? 0 : unit.index / (units.length * 10));
  }
}
