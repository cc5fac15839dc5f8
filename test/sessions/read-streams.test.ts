import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonLines, readSessionFile } from '../../src/sessions/index.js';

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

  it('reads a Gemini JSON document whole: its header, and every message in order whatever text it holds', async () => {
    const file = path.join(dir, 'doc.json');
    const messages = [
      { id: 'a', type: 'user', content: 'first' },
      { id: 'b', type: 'gemini', content: 'x'.repeat(5000) },
      { id: 'c', type: 'user', content: '],}"' },
    ];
    writeFileSync(file, JSON.stringify({ sessionId: 's', messages, after: [1, 2] }));
    const { session, end } = await readSessionFile(file, { client: 'gemini', maxTextChars: 1000 });
    expect(session).toMatchObject({ id: 's', skipped: 0 });
    expect(session.events.map((e) => e.type)).toEqual(['user', 'assistant', 'user']);
    expect(session.events[2]).toEqual({ type: 'user', text: '],}"' });
    expect(end).toBe(Buffer.byteLength(JSON.stringify({ sessionId: 's', messages, after: [1, 2] })));
  });

  it('refuses a file no reader knows with INPUT_INVALID', async () => {
    const file = path.join(dir, 'other.jsonl');
    writeFileSync(file, '{"hello":"world"}\n');
    await expect(readSessionFile(file)).rejects.toMatchObject({ code: 'INPUT_INVALID' });
  });
});
