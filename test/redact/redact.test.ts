import path from 'node:path';
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset, rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { maskSecretsSync, redactSecrets, redactValue, SECRET_PATTERNS } from '../../src/redact/index.js';
import { BATON_SAMPLES, PRESET_SAMPLES, type SecretSample } from './preset-samples.js';

const MARKER = /^\[REDACTED:([a-z0-9-]+)\]$/;
const ALL_SAMPLES = [...PRESET_SAMPLES, ...BATON_SAMPLES];

const kebab = (name: string) => name.toLowerCase().replace(/_/g, '-');
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);

interface Context {
  where: string;
  text: string;
}

/** The sample in an assignment, an export, a flag, a URL, JSON, a shell line (and prose for a token). */
function contexts(sample: SecretSample): Context[] {
  const value = sample.shape === 'url-password' || sample.shape === 'url' ? (sample.url ?? '') : sample.secret;
  const multiLine = value.includes('\n');
  const list: Context[] = [
    { where: 'an assignment', text: multiLine ? `${sample.name}="${value}"` : `${sample.name}=${value}` },
    { where: 'an export', text: multiLine ? `export ${sample.name}="${value}"` : `export ${sample.name}=${value}` },
    { where: 'JSON', text: JSON.stringify({ [sample.name]: value, region: 'eu-west-1' }) },
    { where: 'a shell line', text: sample.shell },
  ];
  // A PEM key spans lines: it is never a flag's value or a URL's password.
  if (!multiLine) list.push({ where: 'a flag', text: `deploy --${kebab(sample.name)}=${value} --verbose` });
  if (sample.shape === 'url-password' || sample.shape === 'url') list.push({ where: 'a URL', text: `see ${value} for details` });
  else if (!multiLine)
    list.push({ where: 'a URL', text: `git push https://ci-bot:${encodeURIComponent(value)}@git.internal.net/team/app.git main` });
  if (sample.shape === 'token') list.push({ where: 'prose', text: `the value ${value} was rejected (401)` });
  return list;
}

/** How the secret is written in a context: as is, JSON-escaped or URL-encoded. */
function shownIn(text: string, secret: string): string {
  const forms = [secret, jsonEscaped(secret), encodeURIComponent(secret)];
  const found = forms.find((form) => text.includes(form));
  if (found === undefined) throw new Error(`the secret is not in ${text.slice(0, 80)}`);
  return found;
}

/** Asserts the secret became exactly one marker and nothing else changed; returns the marker's kind. */
function expectMaskedOnce(text: string, secret: string): string {
  const shown = shownIn(text, secret);
  const at = text.indexOf(shown);
  expect(text.indexOf(shown, at + 1), 'the context holds the secret once').toBe(-1);
  const before = text.slice(0, at);
  const after = text.slice(at + shown.length);
  const result = maskSecretsSync(text);
  expect(result.count).toBe(1);
  expect(result.text.startsWith(before), result.text).toBe(true);
  expect(result.text.endsWith(after), result.text).toBe(true);
  const marker = result.text.slice(before.length, result.text.length - after.length);
  expect(marker, result.text).toMatch(MARKER);
  return MARKER.exec(marker)?.[1] ?? '';
}

describe("one rule set covering secretlint's recommended preset", () => {
  it('has a sample for every rule of the preset that reports secrets', () => {
    const ids = presetRules.map((rule) => rule.meta.id);
    // filter-comments reports nothing: it honours `secretlint-disable` comments, which Baton's
    // masking ignores on purpose (a comment in tool output must not switch masking off).
    const scanners = ids.filter((id) => id !== '@secretlint/secretlint-rule-filter-comments');
    expect(scanners.length).toBeGreaterThanOrEqual(24);
    const sampled = new Set(PRESET_SAMPLES.map((sample) => sample.rule));
    expect(scanners.filter((id) => !sampled.has(id))).toEqual([]);
  });

  it.each(PRESET_SAMPLES.map((s) => [s.label, s] as const))('secretlint itself reports the %s sample', async (_label, sample) => {
    const value = sample.shape === 'url-password' || sample.shape === 'url' ? sample.url : sample.secret;
    const { text, filePath } = sample.oracle ?? { text: `${sample.name}=${value}\n`, filePath: '/work/sample.env' };
    const result = await lintSource({
      source: { content: text, filePath, ext: path.extname(filePath), contentType: 'text' },
      options: { config: { rules: [{ id: recommendedPreset.meta.id, rule: recommendedPreset }] }, noPhysicFilePath: true },
    });
    expect(result.messages.map((m) => m.ruleId)).toContain(sample.rule);
  });

  const cases = ALL_SAMPLES.flatMap((sample) => contexts(sample).map((context) => [sample.label, context.where, sample, context] as const));
  it.each(cases)('masks a %s in %s fully, exactly once', (_label, _where, sample, context) => {
    const kind = expectMaskedOnce(context.text, sample.secret);
    if (sample.shape === 'token' || sample.shape === 'url') expect(kind).toBe(sample.kind);
  });

  it('masks the GCP service account file as the preset sees it: its private key, once', () => {
    const sample = PRESET_SAMPLES.find((s) => s.rule.endsWith('-gcp'));
    const json = sample?.oracle?.text ?? '';
    expect(expectMaskedOnce(json, sample?.secret ?? '')).toBe('private-key');
  });

  it('has a sample for every kind of rule it holds', () => {
    const kinds = new Set<string>();
    for (const sample of ALL_SAMPLES)
      for (const context of contexts(sample))
        for (const m of maskSecretsSync(context.text).text.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)) kinds.add(m[1] ?? '');
    for (const extra of [
      'Authorization: token 0123456789abcdef',
      'curl -H "Authorization: Bearer abcdef0123456789"',
      'curl -u bob:s3cretPw https://x.internal.net',
    ]) {
      for (const m of maskSecretsSync(extra).text.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)) kinds.add(m[1] ?? '');
    }
    // A new rule without a sample here fails this test.
    expect([...new Set(SECRET_PATTERNS.map((p) => p.kind))].filter((kind) => !kinds.has(kind))).toEqual([]);
  });
});

describe('maskSecretsSync', () => {
  it('masks the AWS key id and secret key of issue 34 both, the whole 40 characters of the key', () => {
    const id = BATON_SAMPLES[0]?.secret ?? '';
    const key = PRESET_SAMPLES[0]?.secret ?? '';
    const result = maskSecretsSync(`AWS_ACCESS_KEY_ID=${id} AWS_SECRET_ACCESS_KEY=${key} aws s3 ls`);
    expect(result).toEqual({ text: 'AWS_ACCESS_KEY_ID=[REDACTED:aws] AWS_SECRET_ACCESS_KEY=[REDACTED:aws] aws s3 ls', count: 2 });
  });

  it('masks a token inside URL credentials once, never a marker inside a marker', () => {
    const github = ALL_SAMPLES.find((s) => s.kind === 'github')?.secret ?? '';
    const result = maskSecretsSync(`git clone https://x-access-token:${github}@github.com/team/app.git`);
    expect(result.text).toBe('git clone https://x-access-token:[REDACTED:github]@github.com/team/app.git');
    expect(result.count).toBe(1);
  });

  it('keeps the name of an assignment, the scheme, user and host of a URL, the Bearer prefix', () => {
    const text = 'DB_PASSWORD=Hunter2Hunter2 postgres://app:Zx9kLmN0pQ@db.internal.net/app Authorization: Bearer abcdef0123456789';
    expect(maskSecretsSync(text).text).toBe(
      'DB_PASSWORD=[REDACTED:assignment] postgres://app:[REDACTED:url-credentials]@db.internal.net/app Authorization: Bearer [REDACTED:bearer]',
    );
  });

  it('leaves ordinary prose, code and shell untouched', () => {
    const texts = [
      'const tokens = countTokens(text); // token_estimate is 1200\nask-for-help is a task id',
      'max_tokens=4000 tokenizer=o200k_base PWD=/home/dev/project OLDPWD=/tmp token_count: 123456',
      'function login(token: string, apiKey: string) { return process.env.GITHUB_TOKEN ?? secrets.NPM_TOKEN; }',
      'npm config set //registry.npmjs.org/:_authToken=${NPM_TOKEN}; curl -u "$USER:$PASS" https://x.net',
      'Bearer authentication is described in RFC 6750; the password: field is required',
      'git clone ssh://git@github.com:22/team/app.git && git config credential.helper store',
      'GITHUB_TOKEN_FILE=/run/secrets/gh --api-key-env OPENAI_API_KEY sort_key=created_at',
      'postgres://app:${DB_PASSWORD}@db/app https://user:<password>@host.net',
    ];
    for (const text of texts) expect(maskSecretsSync(text), text).toEqual({ text, count: 0 });
  });

  it('is idempotent: masking twice masks nothing more', () => {
    for (const sample of ALL_SAMPLES) {
      for (const context of contexts(sample)) {
        const once = maskSecretsSync(context.text);
        expect(maskSecretsSync(once.text), context.text).toEqual({ text: once.text, count: 0 });
      }
    }
  });

  it('ignores secretlint-disable comments: a comment in tool output never switches masking off', () => {
    const token = ALL_SAMPLES.find((s) => s.kind === 'github')?.secret ?? '';
    expect(maskSecretsSync(`# secretlint-disable\nexport GITHUB_TOKEN=${token}`).text).toBe(
      '# secretlint-disable\nexport GITHUB_TOKEN=[REDACTED:github]',
    );
  });
});

describe('redactSecrets, redactValue', () => {
  it('redactSecrets masks with the same rules as maskSecretsSync', async () => {
    for (const sample of ALL_SAMPLES) {
      const text = contexts(sample)[0]?.text ?? '';
      await expect(redactSecrets(text)).resolves.toEqual(maskSecretsSync(text));
    }
  });

  it('returns clean text unchanged with a zero count', async () => {
    await expect(redactSecrets('nothing to see here')).resolves.toEqual({ text: 'nothing to see here', count: 0 });
  });

  it('masks many strings and keeps them in input order', async () => {
    const token = ALL_SAMPLES.find((s) => s.kind === 'github')?.secret ?? '';
    const texts = Array.from({ length: 200 }, (_, i) => (i % 50 === 0 ? `n${i} ${token}` : `line ${i}`));
    const results = await Promise.all(texts.map((text) => redactSecrets(text)));
    expect(results.reduce((sum, r) => sum + r.count, 0)).toBe(4);
    expect(results[0]?.text).toBe('n0 [REDACTED:github]');
    expect(results[1]?.text).toBe('line 1');
    expect(results[150]?.text).toBe('n150 [REDACTED:github]');
  });

  it('masks every string inside a nested value without touching the input', async () => {
    const openai = ALL_SAMPLES.find((s) => s.kind === 'openai')?.secret ?? '';
    const input = { a: [`key ${openai}`, 3], b: { c: 'Bearer abcdef0123456789', d: null, e: true } };
    const { value, count } = await redactValue(input);
    expect(count).toBe(2);
    expect(JSON.stringify(value)).not.toContain(openai);
    expect(value.a[1]).toBe(3);
    expect(value.b.d).toBeNull();
    expect(input.a[0]).toContain(openai);
  });

  it('masks a string under a secret-like key whole: the key is its context', async () => {
    const key = PRESET_SAMPLES[0]?.secret ?? '';
    const { value, count } = await redactValue({
      env: { AWS_SECRET_ACCESS_KEY: key, password: 'correct horse battery', REGION: 'eu-west-1', token: '$TOKEN' },
    });
    expect(value).toEqual({
      env: { AWS_SECRET_ACCESS_KEY: '[REDACTED:aws]', password: '[REDACTED:assignment]', REGION: 'eu-west-1', token: '$TOKEN' },
    });
    expect(count).toBe(2);
  });

  it('copies a `__proto__` key as a key: it never becomes the copy’s prototype', async () => {
    const input = JSON.parse('{"__proto__": {"ledger": "redis://evil:6379"}, "title": "t"}') as Record<string, unknown>;
    const { value } = await redactValue(input);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { ledger?: string }).ledger).toBeUndefined();
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"ledger":"redis://evil:6379"},"title":"t"}');
  });
});
