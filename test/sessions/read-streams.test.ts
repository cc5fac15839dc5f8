import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonLines, readSessionFile, streamJsonDocument } from '../../src/sessions/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-session-streams-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('reading session files without holding them', () => {
  it('yields each JSONL line with the offset after it, a torn or oversized line as undefined, and not an unfinished last line', async () => {
    const file = path.join(dir, 'a.jsonl');
    const long = JSON.stringify({ big: 'x'.repeat(5000) });
    writeFileSync(file, `{"a":1}\n\n{not json\n${long}\n{"b":2}\n{"c":`);
    const lines = await collect(readJsonLines(file, { maxLineBytes: 1000 }));
    expect(lines.map((l) => l.value)).toEqual([{ a: 1 }, undefined, undefined, { b: 2 }]);
    expect(lines.at(-1)?.end).toBe(Buffer.byteLength(`{"a":1}\n\n{not json\n${long}\n{"b":2}\n`));
    const resumed = await collect(readJsonLines(file, { start: lines[0]?.end ?? 0 }));
    expect(resumed[0]?.value).toBeUndefined();
    expect(resumed.at(-1)?.value).toEqual({ b: 2 });
  });

  it('streams a JSON document item by item, and an oversized item as undefined while the rest still reads', async () => {
    const file = path.join(dir, 'doc.json');
    writeFileSync(file, JSON.stringify({ sessionId: 's', messages: [{ t: 'a' }, { t: 'x'.repeat(5000) }, { t: '],}"' }], after: [1, 2] }));
    const pieces = await collect(streamJsonDocument(file, { arrayKeys: ['messages'], maxItemChars: 1000 }));
    expect(pieces).toEqual([
      { kind: 'field', key: 'sessionId', value: 's' },
      { kind: 'item', key: 'messages', value: { t: 'a' } },
      { kind: 'item', key: 'messages', value: undefined },
      { kind: 'item', key: 'messages', value: { t: '],}"' } },
      { kind: 'field', key: 'after', value: [1, 2] },
    ]);
  });

  it('refuses a file no reader knows with INPUT_INVALID', async () => {
    const file = path.join(dir, 'other.jsonl');
    writeFileSync(file, '{"hello":"world"}\n');
    await expect(readSessionFile(file)).rejects.toMatchObject({ code: 'INPUT_INVALID' });
  });
});
