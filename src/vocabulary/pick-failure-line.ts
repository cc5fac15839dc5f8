import { clipWords } from './shell-command.js';

/** The longest line returned whole; a longer one keeps its head, cut at a word. @default 300 */
export const FAILURE_LINE_MAX_CHARS = 300;
/** Lines of the output's end searched for the blank line that opens its tail. */
const TAIL_LINES = 24;

/** Lines that never say why something failed: banners, timings, client headers, stack frames, rules. */
const NOISE: readonly RegExp[] = [
  /^TAP version \d+$/,
  /^\d+\.\.\d+$/,
  /^#\s*(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms|subtest)\b/i,
  /^(duration_ms|duration|elapsed|time|wall time|took)\s*[:=]?\s*[\d.]+\s*(ms|s|sec|seconds)?$/i,
  /^(type|location|failureType|code|operator|stack|expected|actual|generatedMessage|name):\s*(['"]?[\w-]+['"]?|\|-?|\d+)?$/,
  /^(\.\.\.|---)$/,
  /^(Chunk ID|Wall time|Original token count|Directory|Signal|Background PIDs|Process Group PGID|Command):/,
  /^(Output:|Error: \(none\))$/,
  /^Exit code:? -?\d+$/i,
  /^Process exited with code -?\d+$/,
  /^<exited with exit code -?\d+>$/,
  /^\[(The command completed|Command finished) with exit code -?\d+\.?\]$/,
  /^at\s.+(:\d+(:\d+)?\)?|\(native\)|<anonymous>\)?)$/,
  /^File ".+", line \d+/,
  /^[\s\p{P}\p{S}]+$/u,
  /^npm (ERR!|error) (code|errno|syscall|path|A complete log|Log files|\s*$|$)/,
  /^npm (ERR!|error)\s+(\/|[A-Z]:\\).*\.log$/,
  /^\[\.\.\. ?[\d,]+ (tokens|lines|chars|characters) omitted ?\.\.\.\]$/,
  /^(real|user|sys)\s+\d+m[\d.]+s$/,
  /^<waiting for command with sessionId: .* timed out after \d+ seconds\./, // Copilot's async shell, still running
  /^warning:\s/i, // a warning never says why something failed
  /^Done in [\d.]+m?s\.?$/,
];

/** Telling lines, best first: the assertion, the error, `not ok`, `FAIL`; then any line naming a failure. */
const TELLING: readonly (readonly RegExp[])[] = [
  [
    /\bAssertionError\b/,
    /^E\s+\S/,
    /\bassert(ion)?\s+(failed|error)\b/i,
    /^error:\s*['"]?Expected\b/,
    /\bExpected\b.*\b(to (be|equal|have|contain|match|throw)|but (got|was|received)|received)\b/,
    /\bexpected\b.+\b(to (be|equal|have|deep|include|contain)|but got|, got)\b/,
    /^assert\s.+==/,
  ],
  [
    /^\(?(?:[\w$]+\.)*[A-Z]\w*(?:Error|Exception|Failure|Fault)\b(\[\w+\])?:\s*\S/,
    /^(?:error|fatal|panic|FATAL|ERROR)(\[[\w-]+\])?:\s*\S/i,
    /^\*\* \([\w.]+\)\s*\S/,
    /^npm (ERR!|error)\s+\S/,
    /^[\w.-]+(?: [\w-]+)? failed:\s*\S/, // `apply_patch verification failed: …`
    /^Invalid (inputs?|arguments?|parameters?|params)\b/i, // a tool refusing its arguments (Copilot `Invalid inputs: …`)
    /\balready exists\b/i, // a create over an existing path (Copilot `Path already exists`)
    /:\s*(?:error|fatal error)\s*(?:[A-Z]+\d+)?\s*:\s*\S/i,
    /\b(command not found|No such file or directory|Permission denied|Operation not permitted|cannot access|Cannot find module|is not recognized as|does not exist|not found|Segmentation fault|unterminated|Killed|refused|timed out|denied|not allowed|unexpected|unrecognized)\b/i,
  ],
  [/^not ok \d+/, /^\s*[✗✖×✘✕]\s+\S/],
  [/^(FAIL|FAILED)\b/, /\b\d+ (failed|failing|errors?)\b/, /^Tests?:.*\bfailed\b/, /\btests? failed\b/i, /\bnon-zero exit\b/i],
  [
    /\b(error|errors|failed|failure|fail|exception|traceback|fatal|panic|denied|invalid|unable|cannot|can't|could not|couldn't)\b/i,
    /^(?:Uncaught\s+)?(?:[\w$]+\.)*[A-Z]\w*(?:Error|Exception)\b\s*$/,
    /^[\w.-]+: \S/,
  ],
];

/**
 * The one line that says why a command or tool failed: the assertion, the error, `not ok`, `FAIL`,
 * else the first line after the output tail's blank line (else its last line) — a whole line,
 * never a cut fragment, never a timing, banner, header or stack-frame line (`duration_ms: 5.03`,
 * `TAP version 13`, `Exit code 1`, `at f (x.js:1:2)`). Understands the clients' wrappers (Codex's
 * JSON result and headers, Gemini's `Output:`/`Exit Code:` block, Claude's `<tool_use_error>`).
 * Whitespace runs are collapsed; a line over FAILURE_LINE_MAX_CHARS keeps its head. Pure;
 * undefined when the output holds no such line.
 *
 * @example
 * pickFailureLine('TAP version 13\nnot ok 1 - adds\n  error: \'Expected values to be strictly equal:\'\n# duration_ms 5.03');
 * // "error: 'Expected values to be strictly equal:'"
 */
export function pickFailureLine(output: string): string | undefined {
  return findFailureLine(output)?.line;
}

/**
 * pickFailureLine with how telling the line is: rank 0 an assertion, 1 an error (an exception with
 * its message, `error:`, `command not found` ...), 2 `not ok`, 3 `FAIL` or a failed count, 4 a line
 * naming a failure, 5 the tail's line (nothing named a failure). Pure.
 */
export function findFailureLine(output: string): { line: string; rank: number } | undefined {
  const lines = cleanLines(output);
  const candidates = lines.map((line, i) => ({ line, i })).filter((c) => c.line.length > 0 && !isNoise(c.line));
  if (candidates.length === 0) return undefined;
  for (const [rank, rules] of TELLING.entries()) {
    const hit = candidates.find((c) => rules.some((re) => re.test(c.line)));
    if (hit) return { line: finish(hit.line), rank };
  }
  return { line: finish(tailLine(lines, candidates)), rank: TELLING.length };
}

/** The first telling line after the last blank line of the tail; else the last line. */
function tailLine(lines: readonly string[], candidates: readonly { line: string; i: number }[]): string {
  const from = Math.max(0, lines.length - TAIL_LINES);
  let blank = -1;
  for (let i = lines.length - 1; i >= from; i -= 1) {
    if ((lines[i] as string).length === 0 && candidates.some((c) => c.i > i)) {
      blank = i;
      break;
    }
  }
  const after = blank >= 0 ? candidates.find((c) => c.i > blank) : undefined;
  return after?.line ?? candidates.at(-1)?.line ?? '';
}

function finish(line: string): string {
  return clipWords(line.replace(/\s+/g, ' ').trim(), FAILURE_LINE_MAX_CHARS);
}

function isNoise(line: string): boolean {
  return NOISE.some((re) => re.test(line));
}

/** The output's lines, trimmed, without ANSI codes, client wrappers, or a first line cut by a tail. */
function cleanLines(output: string): string[] {
  let text = unwrapJson(output)
    .replace(/\u001b\[[\d;?]*[A-Za-z]|\u2190\[[\d;]*m/g, '')
    .replace(/<\/?tool_use_error>/g, '')
    // Codex's sandbox denial inlines the streams: `failed in sandbox … exit code: 2, stdout: …, stderr: …`.
    .replace(/^failed in sandbox [^\n]*?exit code:? -?\d+, stdout: ?/, '')
    .replace(/, stderr: /, '\n')
    .replace(/\r\n?/g, '\n');
  // A tail cut in the middle of a line (`…n_ms: 5.03`): its first line is a fragment.
  if (/^\s*(…|\.\.\.)\S/.test(text)) text = text.slice(text.indexOf('\n') + 1);
  return text.split('\n').map((l) => l.replace(/^Output: /, '').trim());
}

/** Codex's older shell result: `{"output": "...", "metadata": {...}}`; Gemini's `{"error": "..."}`. */
function unwrapJson(output: string): string {
  const text = output.trimStart();
  if (!text.startsWith('{"output"') && !text.startsWith('{"error"')) return output;
  try {
    const parsed = JSON.parse(text) as { output?: unknown; error?: unknown };
    const inner = typeof parsed.error === 'string' ? parsed.error : parsed.output;
    return typeof inner === 'string' ? inner : output;
  } catch {
    return output;
  }
}
