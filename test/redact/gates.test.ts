import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findSecrets, SECRET_PATTERNS, type SecretRange } from '../../src/redact/index.js';
import { FAKE } from './fake-secrets.js';
import { BATON_SAMPLES, PRESET_SAMPLES } from './preset-samples.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** findSecrets as it was before the gates (issue 37): every rule on every text, overlaps merged. */
function everyRule(text: string): SecretRange[] {
  const found: Array<SecretRange & { rank: number }> = [];
  SECRET_PATTERNS.forEach((pattern, rank) => {
    for (const match of text.matchAll(pattern.regex)) {
      if (pattern.accept && !pattern.accept(match.groups ?? {})) continue;
      const group = match.indices?.groups?.secret ?? match.indices?.groups?.secret2;
      const from = group ? group[0] : (match.index ?? 0);
      const to = group ? group[1] : from + match[0].length;
      if (to > from) found.push({ from, to, kind: pattern.kind, rank });
    }
  });
  return found.sort((a, b) => a.from - b.from);
}

/** Every text a secret may sit in: the samples in the contexts secrets are written in. */
function sampleTexts(): string[] {
  const out: string[] = [];
  for (const s of [...PRESET_SAMPLES, ...BATON_SAMPLES]) {
    const value = s.url ?? s.secret;
    out.push(
      `${s.name}=${value}`,
      `export ${s.name}="${value}"`,
      JSON.stringify({ [s.name]: value }),
      s.shell,
      `see ${value} here`,
      `deploy --${s.name.toLowerCase().replace(/_/g, '-')} ${value}`,
    );
  }
  for (const value of Object.values(FAKE)) out.push(value, `token: ${value}`, `curl -u admin:${value} https://x`);
  return out;
}

/** Every string of the session fixtures shipped in the repository. */
function fixtureTexts(): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  for (const file of repositoryFixtures()) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      try {
        walk(JSON.parse(line));
      } catch {
        out.push(line);
      }
    }
  }
  return out;
}

function repositoryFixtures(): string[] {
  const dirs = [path.join(here, '../fixtures/loop/sessions'), path.join(here, '../sessions/fixtures')];
  return dirs.flatMap((dir) => {
    try {
      return readdirSync(dir).map((f) => path.join(dir, f));
    } catch {
      return [];
    }
  });
}

describe('the gates of the secret rules only skip work (issue 37)', () => {
  it("every rule's gate passes every text the rule finds a secret in", () => {
    const missed: string[] = [];
    for (const text of sampleTexts()) {
      for (const pattern of SECRET_PATTERNS) {
        const hits = [...text.matchAll(pattern.regex)].filter((m) => !pattern.accept || pattern.accept(m.groups ?? {}));
        if (hits.length > 0 && pattern.gate && !pattern.gate.test(text)) missed.push(`${pattern.kind}: ${text.slice(0, 60)}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('finds in every sample and fixture text what running every rule finds', () => {
    const texts = [...sampleTexts(), ...fixtureTexts()];
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      const all = everyRule(text);
      const gated = findSecrets(text);
      // Each secret every rule finds is covered by a gated finding.
      for (const range of all)
        expect(
          gated.some((g) => g.from <= range.from && range.to <= g.to),
          text.slice(0, 80),
        ).toBe(true);
      if (all.length === 0) expect(gated).toEqual([]);
    }
  });
});
