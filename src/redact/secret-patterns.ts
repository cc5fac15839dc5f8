import { isSecretName, isSecretValue } from './secret-name.js';
import type { SecretPattern } from './types.js';

// A token's prefix must not be glued to a letter or digit before it (`task-proj-…` is no OpenAI
// key); an underscore or punctuation before it is fine (`GITHUB_TOKEN=ghp_…`).
const S = String.raw`(?<![A-Za-z0-9])`;
// An optional quote around a key or a value, JSON-escaped or not (`"k": "v"`, `\"k\":\"v\"`).
const Q = String.raw`\\?["']?`;

/**
 * Every token rule below starts with one of these literals (case as the rule has it): one scan of
 * this decides whether the twenty-odd token rules need to run at all. A new token rule adds its
 * literal here (test/redact checks every rule's gate against its samples).
 */
const TOKEN_GATE =
  /-----BEGIN|A3T|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|sk-|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|imt|ft|agent)-|glc_|glsa_|xox[abposre]-|xapp-|npm_|SG\.|shp(?:pa|ca|at|ss)_|gsk_|hf_|lin_(?:api|oauth)_|ntn_|secret_|ops_ey|hv[sbr]\.|v(?:cp|ci|ca|cr|ck)_|dapi|dckr_pat_|figd_|[sr]k_(?:live|test)_|AIza|eyJ/;

/**
 * A name the assignment rules accept holds one of these words (secret-name.ts: every secret word
 * and ending contains one), and runs on, in name characters, up to its operator.
 */
const ASSIGNMENT_GATE = /(?:pass|secret|token|key|credential|auth|pwd)[A-Za-z0-9_.-]*\\?["']?\s*(?::=|=>|[:=])/i;

/** The flag form (`--db-password VALUE`): a `--` name holding a secret word, then a space. */
const FLAG_GATE = /--[A-Za-z0-9-]*(?:pass|secret|token|key|credential|auth|pwd)[A-Za-z0-9-]*\s/i;

/** A URL's credentials after its scheme (the scheme is checked by the rule once this finds `://user:pass@`). */
const URL_CREDENTIALS_GATE = /:\/\/[^\s:/@"'\\]{0,256}:[^\s@/"'\\]{1,256}@/i;

const SLACK_WEBHOOK_GATE = /hooks\.slack\.com\//i;

/** A token rule: its body after a prefix not glued to a letter or digit, under TOKEN_GATE. */
const token = (kind: string, body: string): SecretPattern => ({ kind, gate: TOKEN_GATE, regex: new RegExp(S + body, 'g') });

const acceptValue = (groups: Record<string, string | undefined>): boolean => isSecretValue(groups.secret ?? groups.secret2 ?? '');

/**
 * Baton's one set of secret rules: every kind of secretlint's recommended preset (aws, gcp,
 * privatekey, npm, basicauth, slack, sendgrid, shopify, github, gitlab, grafana, openai,
 * anthropic, groq, huggingface, linear, notion, 1password, database-connection-string,
 * hashicorp-vault, vercel, databricks, docker, figma), each at least as wide as the preset's own
 * rule, plus Baton's (Google API keys, Stripe, JWTs, Bearer and Authorization headers, `curl -u`,
 * credentials in any URL, values under a secret-like name). Synchronous regexes only, so the same
 * rules run in a per-tool hook, a log line and the web view.
 *
 * Most specific first: where two rules find overlapping text (a GitLab token under
 * `GITLAB_TOKEN=`, a GitHub token as a URL's password) the text is masked once, under the kind of
 * the earlier rule. A rule masks its named group `secret` (or `secret2`) when it has one, else
 * its whole match; `accept` drops a match that is a placeholder (`$TOKEN`, `<password>`).
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private-key',
    gate: TOKEN_GATE,
    // Up to its END line, or, when the text was cut before it, to the end of the key's base64 body.
    regex:
      /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,-]*)/g,
  },
  {
    kind: 'aws',
    gate: /secret[_-]?access[_-]?key/i,
    regex: new RegExp(
      String.raw`${S}(?:aws[_-]?)?secret[_-]?access[_-]?key${Q}\s*(?::|=>|=)\s*${Q}(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
      'gid',
    ),
  },
  { kind: 'aws', gate: TOKEN_GATE, regex: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[A-Z0-9]{16}\b/g },
  token('anthropic', String.raw`sk-ant-[A-Za-z0-9_-]{20,}`),
  token('openai', String.raw`sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
  token('github', String.raw`(?:gh[pousr]_[A-Za-z0-9_]{30,}|github_pat_[A-Za-z0-9_]{22,})`),
  token('gitlab', String.raw`gl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|imt|ft|agent)-[A-Za-z0-9_-]{20,}`),
  token('grafana', String.raw`(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`),
  token('slack', String.raw`(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`),
  {
    kind: 'slack-webhook',
    gate: SLACK_WEBHOOK_GATE,
    regex: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/gi,
  },
  token('npm', String.raw`npm_[A-Za-z0-9]{36,}`),
  token('sendgrid', String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`),
  token('shopify', String.raw`shp(?:pa|ca|at|ss)_[A-Za-z0-9]{32,}`),
  token('groq', String.raw`gsk_[A-Za-z0-9]{40,}`),
  token('huggingface', String.raw`hf_[A-Za-z0-9]{30,}`),
  token('linear', String.raw`lin_(?:api|oauth)_[A-Za-z0-9_]{32,}`),
  token('notion', String.raw`(?:ntn_[0-9]{11}[A-Za-z0-9]{35,}|secret_[A-Za-z0-9]{43}(?![A-Za-z0-9]))`),
  token('1password', String.raw`ops_ey[A-Za-z0-9+/=_-]{50,}`),
  token('hashicorp-vault', String.raw`hv[sbr]\.[A-Za-z0-9_-]{24,}`),
  token('vercel', String.raw`v(?:cp|ci|ca|cr|ck)_[A-Za-z0-9]{20,}`),
  token('databricks', String.raw`dapi[a-fA-F0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])`),
  token('docker', String.raw`dckr_pat_[A-Za-z0-9_-]{20,}`),
  token('figma', String.raw`figd_[A-Za-z0-9_-]{40,}`),
  token('stripe', String.raw`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
  token('google', String.raw`AIza[0-9A-Za-z_-]{35}`),
  token('jwt', String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
  {
    kind: 'bearer',
    gate: /bearer\s/i,
    // A real token has a digit; "Bearer authentication" in prose has none.
    regex: /\bBearer\s+(?<secret>(?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{12,})/dgi,
  },
  {
    kind: 'authorization',
    gate: /authorization/i,
    regex: new RegExp(
      String.raw`(?<![A-Za-z0-9-])(?:proxy-)?authorization${Q}\s*[:=]\s*${Q}(?:(?:bearer|basic|token|bot|digest|apikey)\s+)?(?<secret>[A-Za-z0-9._~+/=:-]{8,})`,
      'gid',
    ),
    accept: acceptValue,
  },
  {
    kind: 'basic-auth',
    gate: /(?:-u|--user)\s/,
    // `curl -u user:password`
    regex: /(?<![A-Za-z0-9_-])(?:-u|--user)\s+\\?["']?[^\s:"'\\/]{1,100}:(?<secret>[^\s"'\\/][^\s"'\\]{2,})/dg,
    accept: acceptValue,
  },
  {
    kind: 'url-credentials',
    gate: /:x-oauth-basic@/i,
    // A GitHub token as the user of an `x-oauth-basic` URL (npm's package.json dependencies).
    regex: /(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]{0,30}:\/\/(?<secret>[^\s:/@"'\\]{1,256}):x-oauth-basic@/dgi,
    accept: acceptValue,
  },
  {
    kind: 'url-credentials',
    gate: URL_CREDENTIALS_GATE,
    // Any scheme (https, ftp, postgres, mysql, mongodb+srv, redis, amqp…): the password goes, the
    // user and host stay.
    regex: /(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@"'\\]{0,256}:(?<secret>[^\s@/"'\\]{1,256})@/dgi,
    accept: (groups) => groups.secret !== 'x-oauth-basic' && acceptValue(groups),
  },
  {
    kind: 'assignment',
    gate: ASSIGNMENT_GATE,
    // NAME=VALUE, export NAME=VALUE, --name=VALUE, "name": "value", name: value, NAME => 'v';
    // the name says whether the value is a secret (secret-name.ts).
    regex: new RegExp(
      String.raw`(?<![A-Za-z0-9_.$-])(?<name>-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,99})${Q}\s*(?::=|=>|[:=])\s*(?:(?<q>\\?["'])(?<secret>[^\s"'\\]{6,})|(?<secret2>[^\s"'\\,;&|<>(){}[\]\x60]{6,}))`,
      'gd',
    ),
    accept: (groups) => isSecretName(groups.name ?? '') && acceptValue(groups),
  },
  {
    kind: 'assignment',
    gate: FLAG_GATE,
    // --password VALUE (a flag and its value apart); a value starting with `-` is the next flag.
    regex:
      /(?<![A-Za-z0-9_-])(?<name>--[A-Za-z][A-Za-z0-9-]{1,60})\s+(?:(?<q>["'])(?<secret>[^\s"'\\]{6,})|(?<secret2>[^\s"'\\-][^\s"'\\;&|<>()]{5,}))/dg,
    accept: (groups) => isSecretName(groups.name ?? '') && acceptValue(groups),
  },
];

/**
 * Text no pattern above can match fails this one test, so most text is checked in one pass instead
 * of thirty. Every pattern needs one of these literals (case-insensitive here); a new pattern must
 * add its own (test/redact checks each kind's samples pass it).
 */
export const SECRET_PREFILTER =
  /-----BEGIN|secret|pass|pwd|token|key|auth|credential|A(?:3T|KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|PKA|ROA)|sk-|gh[pousr]_|github_pat_|gl[a-z]{1,5}[-_]|xox|xapp-|hooks\.slack|npm_|SG\.|shp|gsk_|hf_|lin_|ntn_|ops_|hv[sbr]\.|vc[picrk]_|dapi|dckr_|figd_|[rs]k_(?:live|test)_|AIza|eyJ|bearer|(?:^|\s)-u\s|--user|:\/\//i;

/** Wraps a secret kind in the marker that replaces it. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** Markers already in a text: a later pass never masks inside or across one (idempotence). */
export const REDACTION_MARKER = /\[REDACTED:[a-z0-9-]+\]/g;
