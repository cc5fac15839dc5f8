import { defaultTrajectoryFiles, readTrajectory, ContextManager, createSnippetExtractor } from '../src/loop/index.js';
const files = await defaultTrajectoryFiles('.');
for (let rep = 0; rep < 3; rep++) for (const f of files) {
  const t = await readTrajectory(f);
  const m = new ContextManager({}, await createSnippetExtractor());
  let fed = 0;
  for (const end of t.steps) { m.recordAll(t.events.slice(fed, end)); m.assemble({ budget: 4096 }); fed = end; }
}
