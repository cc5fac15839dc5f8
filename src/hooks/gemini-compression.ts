import { readTranscript } from './read-transcript.js';

/** Gemini CLI compresses when the last prompt's tokens reach this share of the model's window (its default). */
const GEMINI_COMPRESSION_THRESHOLD = 0.5;
/** Its window for every Gemini model but Gemma 4 (256,000). */
const GEMINI_TOKEN_LIMIT = 1_048_576;
const TAIL_BYTES = 64 * 1024;

/**
 * Gemini CLI fires PreCompress before every turn, whether it compresses or not, and nothing after
 * a compression. It compresses when the last prompt's token count (which its transcript records
 * on each model message, `"tokens":{"input":N`) reaches half the model's window, or when the user
 * runs /compress (trigger `manual`). This reads the transcript's tail for that count, and whether
 * it reaches the threshold (Gemini then compresses before its next model request). Undefined
 * when the transcript is missing or records no count yet.
 */
export async function geminiPromptTokens(transcriptPath: string | undefined): Promise<{ tokens: number; due: boolean } | undefined> {
  if (!transcriptPath) return undefined;
  const tail = (await readTranscript(transcriptPath, 0, TAIL_BYTES))?.bytes.toString('utf8') ?? '';
  let last: RegExpExecArray | null = null;
  const pattern = /"tokens":\{"input":(\d+)/g;
  for (let match = pattern.exec(tail); match; match = pattern.exec(tail)) last = match;
  if (!last) return undefined;
  const model = /"model":"([^"]+)"[^\n]*$/.exec(tail)?.[1] ?? '';
  const limit = /gemma-4/i.test(model) ? 256_000 : GEMINI_TOKEN_LIMIT;
  const tokens = Number(last[1]);
  return { tokens, due: tokens >= GEMINI_COMPRESSION_THRESHOLD * limit };
}
