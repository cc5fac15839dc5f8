import { defaultTrajectoryFiles, readTrajectory, ContextManager, createSnippetExtractor } from '../src/loop/index.js';
const files = await defaultTrajectoryFiles('.');
const tot: Record<string, number> = {};
for (const f of files) {
  const t = await readTrajectory(f);
  const m = new ContextManager({}, await createSnippetExtractor());
  let fed = 0;
  for (const end of t.steps) {
    m.recordAll(t.events.slice(fed, end)); fed = end;
    const c = m.assemble({ budget: 16384 });
    for (const s of c.sections) { const k = s.id.replace(/-\d+$/, ''); tot[k] = (tot[k] ?? 0) + s.tokens; }
  }
}
console.log(tot);
