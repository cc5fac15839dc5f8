// Entry of the render worker thread (render-worker.ts): receives gathered snapshots, answers
// with masked and rendered results. Its own tokenizer and secret-scanner load here, off the
// server's event loop.
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../errors/index.js';
import { redactValue } from '../redact/index.js';
import { redactAndRender } from './redact-and-render.js';
import type { ContextSnapshot, RenderJob } from './types.js';

interface Request {
  id: number;
  raw: ContextSnapshot;
  job: RenderJob;
}

// Module loading gave the tokenizer its vocabulary; secretlint's rules load on first use: now.
void redactValue({ warm: 'up' }).catch(() => undefined);

parentPort?.on('message', (request: Request) => {
  redactAndRender(request.raw, request.job).then(
    (outcome) => parentPort?.postMessage({ id: request.id, outcome }),
    (error: unknown) => parentPort?.postMessage({ id: request.id, error: errorMessage(error) }),
  );
});
