import { expect } from 'vitest';
import type { ContextAdapterOptions } from '../../../src/loop/index.js';
import type { ChatServer, ScriptedReply } from './chat-server.js';

/** The framework tests' agent: its system prompt, its task and the one tool it calls. */
export const SYSTEM = 'You are a careful coding agent.';
export const TASK = 'Find the bug in src/ and explain it.';
export const ANSWER = 'The bug is in part 5.';

/** What `read_file` returns: 40 lines, so older turns are worth summarizing. */
export const fileText = (path: string) =>
  Array.from({ length: 40 }, (_, i) => `${path}:${i + 1}: value_${i} = compute_${i}(value_${i - 1})`).join('\n');

const read = (n: number): ScriptedReply => ({ toolCalls: [{ id: `call_${n}`, name: 'read_file', args: { path: `src/part_${n}.py` } }] });

/** Five tool steps, then on the sixth call a 429 (with `hint` as its headers) and a 500, then the answer. */
export function ladderScript(hint: Record<string, string>): ScriptedReply[] {
  return [
    read(1),
    read(2),
    read(3),
    read(4),
    read(5),
    { status: 429, error: 'RESOURCE_EXHAUSTED: rate limit', headers: hint },
    { status: 500, error: 'INTERNAL: backend error' },
    { text: ANSWER },
  ];
}

/** Adapter options whose sleep records what it was asked to wait and returns at once (the retry's time source). */
export function recordingSleep(): { sleeps: number[]; options: ContextAdapterOptions } {
  const sleeps: number[] = [];
  return { sleeps, options: { initialDelayMs: 300, jitter: 0, sleep: async (ms) => void sleeps.push(ms) } };
}

/**
 * The sixth call's three requests follow the ladder: fewer messages and characters each time (the
 * five turns, the last 2, the last one), each with the system prompt first and the task.
 */
export function expectLadder(requests: ChatServer['requests']): void {
  expect(requests).toHaveLength(8);
  const [failed, retry1, retry2] = requests.slice(5, 8).map((r) => r.size);
  expect(retry1!.messages).toBeLessThan(failed!.messages);
  expect(retry2!.messages).toBeLessThan(retry1!.messages);
  expect(retry1!.chars).toBeLessThan(failed!.chars);
  expect(retry2!.chars).toBeLessThan(retry1!.chars);
  const assistants = (i: number) => requests[i]!.messages.filter((m) => m.role === 'assistant').length;
  expect([assistants(5), assistants(6), assistants(7)]).toEqual([5, 2, 1]);
  for (const r of requests) {
    expect(r.messages[0]?.role).toBe('system');
    expect(JSON.stringify(r.messages[0]?.content)).toContain(SYSTEM);
    expect(JSON.stringify(r.messages)).toContain(TASK);
  }
  expect(JSON.stringify(requests[7]!.messages)).not.toContain('value_20 = compute_20');
}
