import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBaton, tempDir } from '../helpers/cli.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await cleanup();
});

describe('port flags', () => {
  // Each command checks its port before it opens a ledger, connects to Redis or listens.
  it.each([
    [['ui', '--port', '70000'], '--port', '70000'],
    [['mcp', '--http', '--port', 'abc'], '--port', 'abc'],
    [['serve', '--config', 'panel.json', '--port', '-1'], '--port', '-1'],
    [['worker', '--ledger', 'redis://127.0.0.1:1/0', '--metrics-port', '1.5'], '--metrics-port', '1.5'],
    [['run', 'plan.json', '--metrics-port', ' '], '--metrics-port', ' '],
  ])('baton %j refuses the port with exit 2, naming the flag and the value', async (args, flag, value) => {
    const run = await runBaton([...args, '--json'], { cwd: dir, env: process.env });
    expect(run.code).toBe(2);
    const error = run.json<{ error: { code: string; message: string } }>().error;
    expect(error.code).toBe('INPUT_INVALID');
    expect(error.message).toBe(`${flag} must be a port number from 0 to 65535, got "${value}"`);
  });
});
