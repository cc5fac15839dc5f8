import type { OutcomeKind } from '../../ledger/index.js';

/**
 * Failure texts from REFERENCE.md and the recorded fixtures, most specific first. Order matters:
 * Google words plain rate limits as "exceeded your current quota" next to RESOURCE_EXHAUSTED, so
 * explicit plan limits are quota, then rate-limit words win, and a bare "quota" comes last.
 */
const PHRASE_RULES: readonly { kind: OutcomeKind; pattern: RegExp }[] = [
  {
    kind: 'context_window',
    pattern:
      /context[ _-]?(length|window)[ _-]?(exceeded|too|limit|is)|maximum context|too many tokens|prompt is too long|input is too long|context_length_exceeded/i,
  },
  {
    kind: 'auth_failed',
    pattern:
      /not logged in|authentication[ _]required|authentication[ _]failed|please run .{0,60}\blogin\b|invalid[ _-](x-)?api[ _-]?key|api key not valid|\bunauthori[sz]ed\b|(status|error|http|code)\W{0,3}(401|403)\b|\b(401|403) (unauthori[sz]ed|forbidden)|oauth token has expired|no credentials|login required|no authentication information|another authentication method|set an auth method/i,
  },
  {
    kind: 'quota_exhausted',
    pattern:
      /usage limit|hit your (session |weekly |daily |monthly )?limit|no quota|quota[ _]exhausted|insufficient[ _]quota|quota_exceeded|\b402\b|out of credits|credit balance is too low|per ?day|daily limit/i,
  },
  {
    kind: 'rate_limited',
    pattern: /rate[ _-]?limit|too many requests|RESOURCE_EXHAUSTED|\b429\b|please wait and try again later/i,
  },
  { kind: 'quota_exhausted', pattern: /quota/i },
  {
    kind: 'overloaded',
    pattern:
      /overloaded|\b(500|502|503|504|529)\b|service unavailable|internal server error|bad gateway|gateway timeout|temporarily unavailable|ECONNRESET|ECONNREFUSED|ETIMEDOUT|fetch failed|network error|stream disconnected|could not connect to|unable to connect|connection ?refused|error sending request/i,
  },
  {
    kind: 'config_error',
    pattern:
      /trusted (directory|folder)|untrusted|trust this folder|command not found|unknown option|unexpected argument|unrecognized (option|argument)|error loading config/i,
  },
];

/**
 * What argument parsers print when they reject a command line: commander (claude, cursor-agent:
 * "error: unknown option '…'"), yargs (gemini: "Not enough arguments following: p", "Unknown
 * argument"), clap (codex, copilot: "error: unexpected argument '…' found"). Such a run never
 * reached a model, whatever else its output says.
 */
const USAGE_ERROR =
  /error: (unknown option|too many arguments|option '[^']*' argument missing|missing required argument|unknown command|unexpected argument|invalid value '[^']*' for|a value is required for|unrecognized subcommand|the argument '[^']*' cannot be used|invalid command format)|not enough arguments following|unknown arguments?: |invalid values:\s*argument|it looks like your prompt was not quoted/i;

/** The line of an argument parser's refusal (USAGE_ERROR), if the text has one. */
export function matchUsageError(text: string): string | undefined {
  const match = USAGE_ERROR.exec(text);
  return match === null ? undefined : lineAround(text, match.index);
}

/** First rule matching any line of the text, with the line that matched (trimmed, max 200 chars). */
export function matchKnownPhrase(text: string): { kind: OutcomeKind; line: string } | undefined {
  if (text.trim() === '') return undefined;
  for (const rule of PHRASE_RULES) {
    const match = rule.pattern.exec(text);
    if (match === null) continue;
    return { kind: rule.kind, line: lineAround(text, match.index) };
  }
  return undefined;
}

function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  let line = text.slice(start, end === -1 ? undefined : end).trim();
  // "Error loading config.toml:" says what; the next line says why.
  if (line.endsWith(':') && end !== -1)
    line = `${line} ${text
      .slice(end + 1)
      .split('\n')[0]!
      .trim()}`.trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
