#!/usr/bin/env node
// A try of `baton run` during which another agent CLI works in the same folder: on try 1 a Codex
// session (its rollout, as Codex writes it in $CODEX_HOME) runs `npm test`, which exits 1, and this
// try leaves the task undone; on try 2 it writes done.txt. Every prompt goes to $AGENT_LOG.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readPrompt } from '../../supervisor/agents/log-prompt.mjs';

const MEANWHILE_ID = '019c0000-7777-7222-8333-444455556666';

readPrompt('codex-meanwhile');
if (process.env.BATON_ATTEMPT === '1') {
  const at = (s) => `2026-03-02T10:00:${String(s).padStart(2, '0')}.000Z`;
  const cwd = process.cwd();
  const lines = [
    { timestamp: at(0), type: 'session_meta', payload: { id: MEANWHILE_ID, timestamp: at(0), cwd, cli_version: '0.171.0' } },
    { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: 'run the tests' } },
    {
      timestamp: at(2),
      type: 'response_item',
      payload: { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'npm test' }), call_id: 'c1' },
    },
    {
      timestamp: at(3),
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'c1', output: 'Exit code: 1\nOutput:\nFAIL test/meanwhile.test.ts' },
    },
  ];
  const dir = path.join(process.env.CODEX_HOME, 'sessions', '2026', '03', '02');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `rollout-2026-03-02T10-00-00-${MEANWHILE_ID}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  console.log('Not done yet.');
} else {
  writeFileSync('done.txt', 'done\n');
  console.log('Done.');
}
