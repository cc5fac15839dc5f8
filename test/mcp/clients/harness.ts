import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Ledger, openLedger } from '../../../src/ledger/index.js';
import { seedBusyWorkspace } from '../../refresh/busy-ledger.js';
import { ROOT } from '../helpers/launch.js';

/** Tasks t1..t9 next to the busy one, for a ten-task refresh. */
export const EXTRA_TASKS = 9;
/** A pending task, whose context resource the clients read. */
export const PENDING_TASK = 'docs';

/**
 * A project as a user has it after following the README: a git repository with Baton's ledger
 * (the busy one of issue 11 and a pending task PENDING_TASK, in `.baton/agent.db`) and Baton installed as a dev dependency from a
 * clone: `node_modules/agent-baton` links to this repository and `node_modules/.bin/baton` to its
 * bin, the layout `npm install --save-dev /path/to/clone` makes (made directly here to keep the
 * suite offline and fast). Needs `npm run build` (dist/).
 */
export async function makeProject(): Promise<{ dir: string; cleanup: () => void }> {
  let ledger: Ledger | undefined;
  const repo = await seedBusyWorkspace(async (dir) => {
    ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: dir });
    return ledger;
  }, EXTRA_TASKS);
  // A task not started yet: its context is a resource too (Gemini CLI reads only listed ones).
  await ledger?.createTask({ id: PENDING_TASK, title: 'Document the /orders API', status: 'pending' });
  await ledger?.close();
  const modules = path.join(repo.dir, 'node_modules');
  mkdirSync(path.join(modules, '.bin'), { recursive: true });
  symlinkSync(ROOT, path.join(modules, 'agent-baton'), 'dir');
  symlinkSync('../agent-baton/bin/baton.js', path.join(modules, '.bin', 'baton'));
  writeFileSync(
    path.join(repo.dir, 'package.json'),
    JSON.stringify({ name: 'demo-project', private: true, devDependencies: { 'agent-baton': `file:${ROOT}` } }, null, 2),
  );
  writeFileSync(path.join(repo.dir, '.gitignore'), 'node_modules/\n.baton/\n');
  return repo;
}
