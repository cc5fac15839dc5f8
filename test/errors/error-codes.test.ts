import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BATON_ERROR_CODES } from '../../src/errors/index.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Upper-case codes written as literals where Baton emits them: `code: 'X'`, `errorBody('X'`, `BatonError('X'`. */
const EMITTED = /(?:\bcode:\s*|errorBody\(\s*|BatonError\(\s*)'([A-Z][A-Z_]+)'/g;

describe('error codes', () => {
  it('every code emitted anywhere in src is a BatonErrorCode', () => {
    const known = new Set<string>(BATON_ERROR_CODES);
    const unknown: string[] = [];
    let seen = 0;
    for (const file of sourceFiles(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(EMITTED)) {
        seen += 1;
        const code = match[1] as string;
        // Node's own errno codes (spawn errors) are not Baton's.
        if (code.startsWith('E') && !known.has(code) && /^E[A-Z]+$/.test(code)) continue;
        if (!known.has(code)) unknown.push(`${path.relative(SRC, file)}: ${code}`);
      }
    }
    expect(seen).toBeGreaterThan(20);
    expect(unknown).toEqual([]);
  });
});
