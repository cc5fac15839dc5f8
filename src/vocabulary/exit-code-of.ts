/** Header lines where clients state an exit code, and the line of Gemini's and Copilot's trailers. */
const HEAD_CODE = [
  /^Exit code:? (-?\d+)\s*$/i, // Claude `Exit code 1`, Codex shell_command `Exit code: 1`
  /^Process exited with code (-?\d+)\s*$/, // Codex exec_command
];
const TAIL_CODE = [
  /^Exit Code: (-?\d+)\s*$/, // Gemini run_shell_command
  /^<exited with exit code (-?\d+)>\s*$/, // Copilot CLI
  /^\[(?:The command completed|Command finished) with exit code (-?\d+)\.?\]\s*$/, // OpenHands
];
const SANDBOX_CODE = /^failed in sandbox[^\n]*?\bexit code:? (-?\d+)/i; // Codex sandbox denial
const HEAD_LINES = 6;
const TAIL_LINES = 8;

/**
 * The exit code a tool result states: in `metadata` (Codex `{exit_code}`, OpenHands `{exit_code}`),
 * in a Codex JSON result (`{"output": …, "metadata": {"exit_code": N}}`), in the header lines
 * (Claude `Exit code N`, Codex `Exit code: N` / `Process exited with code N`), or in the trailer
 * (Gemini `Exit Code: N`, Copilot `<exited with exit code N>`, OpenHands `[… exit code N]`).
 * Only those places are read, so an output that merely prints such words is not taken for one.
 * Pure; undefined when the result states none.
 */
export function exitCodeOf(output: string, metadata?: unknown): number | undefined {
  const fromMetadata = codeIn(metadata);
  if (fromMetadata !== undefined) return fromMetadata;
  const text = output.trimStart();
  if (text.startsWith('{') && text.includes('"exit_code"')) {
    try {
      const parsed = JSON.parse(text) as { metadata?: unknown; exit_code?: unknown };
      const code = codeIn(parsed.metadata) ?? codeIn(parsed);
      if (code !== undefined) return code;
    } catch {
      // Not a JSON result.
    }
  }
  const sandbox = SANDBOX_CODE.exec(text);
  if (sandbox) return Number(sandbox[1]);
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const tail = lines
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .slice(-TAIL_LINES);
  return firstCode(lines.slice(0, HEAD_LINES), HEAD_CODE) ?? firstCode(tail, TAIL_CODE);
}

/** The code the first line matching one of `patterns` states, trying each line with every pattern. */
function firstCode(lines: readonly string[], patterns: readonly RegExp[]): number | undefined {
  for (const line of lines) {
    const m = patterns.map((re) => re.exec(line)).find((match) => match !== null);
    if (m) return Number(m[1]);
  }
  return undefined;
}

function codeIn(value: unknown): number | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  const code = o.exit_code ?? o.exitCode;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}
