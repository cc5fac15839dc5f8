import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const FAILED_CODEX_ID = '019c0000-1111-7222-8333-444455556666';

/** Writes a Codex rollout for `workspace` under `codexHome` whose one turn ended with `npm test` exiting 1. */
export async function writeFailedCodexRollout(codexHome: string, workspace: string): Promise<string> {
  const at = (s: number) => `2026-03-01T10:00:${String(s).padStart(2, '0')}.000Z`;
  const lines = [
    {
      timestamp: at(0),
      type: 'session_meta',
      payload: { id: FAILED_CODEX_ID, timestamp: at(0), cwd: workspace, originator: 'codex_cli_rs', cli_version: '0.171.0' },
    },
    { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: 'make the parser tests pass' } },
    {
      timestamp: at(2),
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell_command',
        arguments: JSON.stringify({ command: 'npm test', workdir: workspace }),
        call_id: 'call_1',
      },
    },
    {
      timestamp: at(3),
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: 'call_1',
        output: 'Exit code: 1\nWall time: 2 seconds\nOutput:\nFAIL test/parser.test.ts\n1 failed',
      },
    },
  ];
  const dir = path.join(codexHome, 'sessions', '2026', '03', '01');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `rollout-2026-03-01T10-00-00-${FAILED_CODEX_ID}.jsonl`);
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}
