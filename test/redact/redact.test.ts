import { describe, expect, it } from 'vitest';
import { maskSecretsSync, redactSecrets, redactSecretsMany, redactValue } from '../../src/redact/index.js';
import { SECRET_PATTERNS, SECRET_PREFILTER } from '../../src/redact/secret-patterns.js';
import { FAKE } from './fake-secrets.js';

const tokenShapes: Array<[string, string]> = [
  ['openai', FAKE.openai],
  ['anthropic', FAKE.anthropic],
  ['github pat', FAKE.githubPat],
  ['github oauth', FAKE.githubOauth],
  ['github server', FAKE.githubServer],
  ['github fine-grained', FAKE.githubFine],
  ['aws', FAKE.aws],
  ['slack', FAKE.slack],
  ['google', FAKE.google],
  ['jwt', FAKE.jwt],
  ['private key', FAKE.privateKey],
];

describe('maskSecretsSync', () => {
  it.each(tokenShapes)('masks a planted %s secret and counts it', (_name, secret) => {
    const result = maskSecretsSync(`before ${secret} after`);
    expect(result.text).not.toContain(secret);
    expect(result.text).toMatch(/^before \[REDACTED:[a-z-]+\] after$/);
    expect(result.count).toBe(1);
  });

  it('keeps the Bearer prefix and masks only the token', () => {
    const result = maskSecretsSync(`Authorization: Bearer ${FAKE.bearerToken}`);
    expect(result.text).toBe('Authorization: Bearer [REDACTED:bearer]');
  });

  it('keeps the key of a password assignment and masks its value', () => {
    const result = maskSecretsSync(`DB_PASSWORD=${FAKE.password}\napi_key: "${FAKE.password}"\ntoken=${FAKE.password}`);
    expect(result.text).not.toContain(FAKE.password);
    expect(result.text).toContain('DB_PASSWORD=[REDACTED:assignment]');
    expect(result.text).toContain('api_key: "[REDACTED:assignment]"');
    expect(result.count).toBe(3);
  });

  it('masks the password of a URL but keeps scheme, user and host', () => {
    const result = maskSecretsSync(`clone https://bob:${FAKE.urlPassword}@git.example.com/repo.git`);
    expect(result.text).toBe('clone https://bob:[REDACTED:url-credentials]@git.example.com/repo.git');
  });

  it('leaves ordinary prose and code untouched', () => {
    const text = 'const tokens = countTokens(text); // token_estimate is 1200\nask-for-help is a task id';
    expect(maskSecretsSync(text)).toEqual({ text, count: 0 });
  });

  it('lets every secret kind and every assignment key through its one-pass prefilter', () => {
    const keys = [
      'password',
      'PASSWD',
      'pwd',
      'secret',
      'api-key',
      'APIKEY',
      'access_token',
      'auth-token',
      'refresh_token',
      'client_secret',
      'private_key',
      'token',
    ];
    const samples = [
      ...tokenShapes.map(([, secret]) => secret),
      `Authorization: bearer ${FAKE.bearerToken}`,
      `postgres://bob:${FAKE.urlPassword}@db.example.com/app`,
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      ...keys.map((key) => `${key}=${FAKE.password}`),
    ];
    const kinds = new Set<string>();
    for (const sample of samples) {
      expect(SECRET_PREFILTER.test(sample), sample).toBe(true);
      const masked = maskSecretsSync(`x ${sample} y`).text;
      for (const m of masked.matchAll(/\[REDACTED:([a-z-]+)\]/g)) kinds.add(m[1] as string);
    }
    // A new pattern without a sample here (and a literal in the prefilter) fails this test.
    expect([...kinds].sort()).toEqual(SECRET_PATTERNS.map((p) => p.kind).sort());
  });

  it('is idempotent: masking twice masks nothing more', () => {
    const once = maskSecretsSync(`password=${FAKE.password} ${FAKE.githubPat}`);
    const twice = maskSecretsSync(once.text);
    expect(twice).toEqual({ text: once.text, count: 0 });
  });
});

describe('redactSecrets', () => {
  it('masks what secretlint reports with the rule name, then what the regexes catch', async () => {
    const text = [
      `github: ${FAKE.githubPat}`,
      `db: postgres://admin:${FAKE.urlPassword}@db.internal:5432/app`,
      `aws: ${FAKE.aws}`,
      FAKE.privateKey,
    ].join('\n');
    const result = await redactSecrets(text);
    for (const secret of [FAKE.githubPat, FAKE.urlPassword, FAKE.aws, FAKE.privateKey]) {
      expect(result.text).not.toContain(secret);
    }
    expect(result.text).toContain('[REDACTED:github]');
    expect(result.count).toBeGreaterThanOrEqual(4);
  });

  it('returns clean text unchanged with a zero count', async () => {
    await expect(redactSecrets('nothing to see here')).resolves.toEqual({ text: 'nothing to see here', count: 0 });
  });

  it('batches many strings and maps every secret back to the string it came from', async () => {
    const texts = Array.from({ length: 200 }, (_, i) => (i % 50 === 0 ? `n${i} ${FAKE.githubPat}` : `line ${i}`));
    const result = await redactSecretsMany(texts, { batchChars: 500 });
    expect(result.texts).toHaveLength(200);
    expect(result.count).toBe(4);
    expect(result.texts[0]).toBe('n0 [REDACTED:github]');
    expect(result.texts[1]).toBe('line 1');
    expect(result.texts[150]).toBe('n150 [REDACTED:github]');
  });

  it('masks every string inside a nested value without touching the input', async () => {
    const input = { a: [`key ${FAKE.openai}`, 3], b: { c: `Bearer ${FAKE.bearerToken}`, d: null, e: true } };
    const { value, count } = await redactValue(input);
    expect(count).toBe(2);
    expect(JSON.stringify(value)).not.toContain(FAKE.openai);
    expect(JSON.stringify(value)).not.toContain(FAKE.bearerToken);
    expect(value.a[1]).toBe(3);
    expect(value.b.d).toBeNull();
    expect(input.a[0]).toContain(FAKE.openai);
  });
});
