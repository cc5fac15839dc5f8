import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSessionFile, readSessionWindow, type SessionClient } from '../../src/sessions/index.js';
import { tempDir } from '../helpers/cli.js';
import { sharedSessionFiles, sharedSessionsPresent } from './shared-sessions.js';

const FOLDERS: Array<[SessionClient, string]> = [
  ['claude', 'claude-code'],
  ['codex', 'codex'],
  ['copilot', 'copilot-cli'],
];

/** The session's body repeated `times` times after its first line, each copy's call ids made unique: a long real session. */
function repeated(text: string, times: number): string {
  const [first, ...rest] = text.split('\n').filter((l) => l.length > 0);
  const out = [first as string];
  for (let k = 0; k < times; k += 1)
    for (const line of rest)
      out.push(
        line.replace(/call_[A-Za-z0-9]+|toolu_[A-Za-z0-9]+/g, (m) => `${m}_k${k}`).replace(/"toolCallId":"/g, `"toolCallId":"k${k}`),
      );
  return `${out.join('\n')}\n`;
}

describe.skipIf(!sharedSessionsPresent)('the head-and-tail read of the real public sessions, made long', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('baton-window-shared-'));
  });
  afterAll(() => cleanup());

  it('gives the whole read’s first request, id, model, ending and newest 300 events for every client with JSONL files', async () => {
    let windows = 0;
    for (const [client, folder] of FOLDERS) {
      for (const file of sharedSessionFiles(folder).filter((f) => f.endsWith('.jsonl'))) {
        const big = path.join(dir, `${client}-${path.basename(file)}`);
        await writeFile(big, repeated(await readFile(file, 'utf8'), 6));
        const window = await readSessionWindow(big, client, 300);
        if (!window || window.whole) continue;
        windows += 1;
        const whole = (await readSessionFile(big, { client })).session;
        expect(window.first, big).toEqual(whole.events.find((e) => e.type === 'user'));
        expect(window.tail.slice(-300), big).toEqual(whole.events.slice(-300));
        expect([window.session.id, window.session.model, window.session.ending], big).toEqual([whole.id, whole.model, whole.ending]);
      }
    }
    expect(windows).toBeGreaterThan(10);
  });
});
