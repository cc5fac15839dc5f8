import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { gatherSnapshot, GitCache, type RenderJob, type RenderWorker } from '../../src/refresh/index.js';
import { redactAndRender } from '../../src/refresh/redact-and-render.js';
import { batonCommand, ROOT } from '../mcp/helpers/launch.js';
import { FAKE } from '../redact/fake-secrets.js';
import { makeRepo, writeFiles } from './helpers.js';

// The worker runs compiled code (dist/refresh/render-worker-main.js): from source there is no
// worker file, and RenderWorker renders in-thread (tested through every other refresh test).
const built = path.join(ROOT, 'dist/refresh/render-worker.js');
const repo = makeRepo({ 'src/app.ts': 'export {};\n' });
afterAll(() => repo.cleanup());

describe.skipIf(!existsSync(built) || !batonCommand().built)('RenderWorker (off the event loop)', () => {
  it('masks and renders on a worker thread, with the same result as in-thread', async () => {
    const { RenderWorker: BuiltWorker } = (await import(pathToFileURL(built).href)) as { RenderWorker: new () => RenderWorker };
    const worker = new BuiltWorker();
    try {
      const ledger = new MemoryLedger();
      await ledger.createTask({ id: 't1', title: 'Rotate keys', status: 'in_progress', instructions: `use password=${FAKE.password}` });
      // The ledger stored the task masked; the working tree's diff brings a secret to mask here.
      writeFiles(repo.dir, { 'src/app.ts': `export const password = '${FAKE.password}';\n` });
      const gather = () => gatherSnapshot({ ...gatherOptions(), ledger, includeGitDiff: true });
      const job: RenderJob = {
        format: 'detailed',
        now: 1_800_000_000_000,
        metadata: { generated_at: '2027-01-15T08:00:00.000Z', cache: { git: 'miss', hits: 0, misses: 1 } },
      };
      const [offThread, inThread] = await Promise.all([
        worker.render((await gather()).snapshot, job),
        redactAndRender((await gather()).snapshot, job),
      ]);
      expect(worker.offThread).toBe(true);
      expect(offThread.rendered.text).toBe(inThread.rendered.text);
      expect(offThread.rendered.text).not.toContain(FAKE.password);
      expect(offThread.rendered.metadata.redactions).toBeGreaterThan(0);
    } finally {
      await worker.close();
    }
  });
});

function gatherOptions() {
  return {
    workspace: repo.dir,
    gitCache: new GitCache(),
    includeGit: true,
    includeGitDiff: false,
    includeTechDebt: true,
    includeDispatches: true,
    includeTaskArtifacts: false,
    includeArtifactContents: false,
    includeResearch: false,
    dispatchLimit: 5,
    commitLimit: 5,
    env: {},
    now: 1_800_000_000_000,
  };
}
