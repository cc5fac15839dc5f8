import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** One step the scripted model takes: a shell command, or (at the end) the answer. */
export type ScriptedStep = { command: string } | { answer: string };

export interface ScriptedServer {
  baseURL: string;
  /** Stops the server and returns the size in bytes of each request body, in order (what the loop sent). */
  close(): Promise<number[]>;
}

/**
 * Starts the scripted server in a child process, so that its work is not counted in the loop's
 * process (its CPU time, its event loop).
 */
export async function startScriptedServer(steps: readonly ScriptedStep[]): Promise<ScriptedServer> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send(steps);
  const [{ baseURL }] = (await once(child, 'message')) as [{ baseURL: string }];
  return {
    baseURL,
    close: async () => {
      child.send('close');
      const [{ requestBytes }] = (await once(child, 'message')) as [{ requestBytes: number[] }];
      await once(child, 'exit');
      return requestBytes;
    },
  };
}

/**
 * A local OpenAI chat-completions server that answers at once with the next scripted step, as
 * the recorded trajectory's model did: a `run` tool call for each action, then the answer. Real
 * HTTP, no think time, so what is measured is the loop's own work.
 */
async function serve(steps: readonly ScriptedStep[]): Promise<{ baseURL: string; requestChars: number[]; close(): Promise<void> }> {
  const requestChars: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requestChars.push(Buffer.concat(chunks).length);
      const n = requestChars.length;
      const step = steps[Math.min(n - 1, steps.length - 1)] as ScriptedStep;
      const message =
        'answer' in step
          ? { role: 'assistant', content: step.answer }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: `call_${n}`, type: 'function', function: { name: 'run', arguments: JSON.stringify({ command: step.command }) } },
              ],
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          created: 0,
          model: 'bench-model',
          choices: [{ index: 0, message, finish_reason: 'answer' in step ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requestChars,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

if (process.argv.includes('--serve') && process.send) {
  process.once('message', (steps: ScriptedStep[]) => {
    void serve(steps).then((server) => {
      process.send?.({ baseURL: server.baseURL });
      process.once('message', () => {
        void server.close().then(() => process.send?.({ requestBytes: server.requestChars }, () => process.disconnect()));
      });
    });
  });
}
