#!/usr/bin/env node
// The stand-in agent: logs its start to $START_LOG (JSONL: task, attempt, pid, cwd and
// the prompt's first line),
// sleeps $AGENT_SLEEP_MS (default 200) (with $AGENT_WAIT_FILE: until that file exists), then writes out/<task>.txt (and logs its end to $END_LOG). With $AGENT_EDIT_FILE it
// instead writes "<task>" into line $AGENT_EDIT_LINE (default 1) of that shared file, which makes
// two tasks conflict when integrated.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const prompt = readFileSync(0, 'utf8');
const task = process.env.BATON_TASK_ID ?? 'unknown';
if (process.env.START_LOG) {
  const entry = {
    task,
    attempt: Number(process.env.BATON_ATTEMPT),
    pid: process.pid,
    cwd: process.cwd(),
    head: prompt.split('\n')[0],
    at: Date.now(),
  };
  appendFileSync(process.env.START_LOG, `${JSON.stringify(entry)}\n`);
}
await new Promise((resolve) => setTimeout(resolve, Number(process.env.AGENT_SLEEP_MS ?? 200)));
while (process.env.AGENT_WAIT_FILE && !existsSync(process.env.AGENT_WAIT_FILE)) await new Promise((resolve) => setTimeout(resolve, 50));
const edit = process.env.AGENT_EDIT_FILE;
if (edit && (process.env.AGENT_EDIT_TASKS ?? '').split(',').includes(task)) {
  const lines = readFileSync(edit, 'utf8').split('\n');
  const at = Number(process.env.AGENT_EDIT_LINE ?? 1) - 1;
  lines[at] = lines[at] ? `${lines[at]} ${task}` : task;
  writeFileSync(edit, lines.join('\n'));
} else {
  mkdirSync('out', { recursive: true });
  writeFileSync(`out/${task}.txt`, `${task}\n`);
}
if (process.env.END_LOG) appendFileSync(process.env.END_LOG, `${JSON.stringify({ task, at: Date.now() })}\n`);
console.log(`wrote ${task}`);
