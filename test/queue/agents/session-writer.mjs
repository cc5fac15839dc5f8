#!/usr/bin/env node
// A supervised try that is also an agent CLI session: like the queue tests' out-writer it writes
// out/<task>.txt, and it leaves the native session a real Codex CLI would, a rollout in
// $CODEX_HOME whose cwd is the try's folder (the worker's worktree) and whose first request is the
// task prompt it was given (stdin). Its id is $SESSION_ID; each start is logged to $START_LOG.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const prompt = readFileSync(0, 'utf8');
const task = process.env.BATON_TASK_ID ?? 'unknown';
const id = process.env.SESSION_ID;
const cwd = process.cwd();
appendFileSync(process.env.START_LOG, `${JSON.stringify({ task, attempt: Number(process.env.BATON_ATTEMPT), cwd })}\n`);
const at = (s) => `2026-03-02T10:00:${String(s).padStart(2, '0')}.000Z`;
const lines = [
  { timestamp: at(0), type: 'session_meta', payload: { id, timestamp: at(0), cwd, cli_version: '0.171.0' } },
  { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: prompt } },
  {
    timestamp: at(2),
    type: 'response_item',
    payload: {
      type: 'function_call',
      name: 'shell_command',
      arguments: JSON.stringify({ command: `mkdir -p out && echo ${task} > out/${task}.txt` }),
      call_id: 'c1',
    },
  },
  { timestamp: at(3), type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'Exit code: 0\nOutput:\n' } },
];
const dir = path.join(process.env.CODEX_HOME, 'sessions', '2026', '03', '02');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, `rollout-2026-03-02T10-00-00-${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
mkdirSync('out', { recursive: true });
writeFileSync(`out/${task}.txt`, `${task}\n`);
console.log(`wrote ${task}`);
