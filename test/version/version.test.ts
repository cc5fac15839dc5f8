import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BATON_VERSION } from '../../src/version/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };

describe('the version', () => {
  it('has one source, package.json', () => {
    expect(BATON_VERSION).toBe(manifest.version);
  });

  it('is what the built `baton --version` prints (needs npm run build)', () => {
    const out = execFileSync(process.execPath, [`${root}/bin/baton.js`, '--version'], { encoding: 'utf8' });
    expect(out.trim()).toBe(manifest.version);
  });
});
