import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('docs/architecture.md', () => {
  it('names every top-level folder of src/, and no folder that is gone', () => {
    const folders = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const named = [...doc.matchAll(/^\|\s*`([a-z-]+)\/`\s*\|/gm)].map((m) => m[1]).sort();
    expect(named).toEqual(folders);
  });
});
