import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export interface RunProcessOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Written to stdin, which is then closed (closed empty when absent). */
  input?: string;
}

/** Runs a process to the end in its own process group, killed whole (SIGKILL) on timeout. */
export function runProcess(command: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const finish = (code: number | null, extra = '') => {
      clearTimeout(timer);
      // Children the client left behind (MCP servers, shells) go with it.
      killGroup();
      resolve({ code, stdout, stderr: `${stderr}${extra}`, timedOut, durationMs: performance.now() - started });
    };
    child.on('error', (error) => finish(-1, error.message));
    child.on('close', (code) => finish(code));
    child.stdin.on('error', () => {
      // A client that exits without reading stdin closes the pipe: not an error of the run.
    });
    child.stdin.end(options.input ?? '');
  });
}
