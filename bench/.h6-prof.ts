import { defaultTrajectoryFiles, readTrajectory, ContextManager, createSnippetExtractor } from '../src/loop/index.js';
const files = await defaultTrajectoryFiles('.');
const rows: [number, string, number, number, number][] = [];
for (const f of files) {
  const t = await readTrajectory(f);
  const m = new ContextManager({}, await createSnippetExtractor());
  let fed = 0;
  for (const end of t.steps) {
    const t0 = performance.now();
    m.recordAll(t.events.slice(fed, end));
    const t1 = performance.now();
    const c = m.assemble({ budget: 4096 });
    const t2 = performance.now();
    if (fed > 0) rows.push([t2 - t0, t.id.slice(0, 30), end, t1 - t0, t2 - t1]);
    fed = end;
  }
}
rows.sort((a, b) => b[0] - a[0]);
console.log(rows.slice(0, 15).map((r) => r.map((x) => (typeof x === 'number' ? x.toFixed(1) : x)).join(' ')).join('\n'));
