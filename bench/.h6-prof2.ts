import { defaultTrajectoryFiles, readTrajectory, ContextManager, createSnippetExtractor } from '../src/loop/index.js';
const files = (await defaultTrajectoryFiles('.')).filter((f) => f.includes('BabyEncryption'));
const t = await readTrajectory(files[0]!);
const m = new ContextManager({}, await createSnippetExtractor());
const end = t.steps[6]!;
m.recordAll(t.events.slice(0, end));
for (let r = 0; r < 5; r++) { const t0 = performance.now(); for (let i = 0; i < 20; i++) m.assemble({ budget: 4096 }); console.log(((performance.now() - t0) / 20).toFixed(2)); }
