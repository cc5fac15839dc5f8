import { defaultTrajectoryFiles, readTrajectory, ContextManager, createSnippetExtractor, type LoopEvent } from '../src/loop/index.js';
const files = (await defaultTrajectoryFiles('.')).filter((f) => f.includes('pydicom'));
const t = await readTrajectory(files[0]!);
const head = t.events.slice(0, t.steps[0]);
const body = t.events.slice(t.steps[0]);
const events: LoopEvent[] = [...head];
for (let r = 0; r < 12; r++) for (const e of body) {
  if (e.kind === 'assistant') events.push({ ...e, toolCalls: e.toolCalls?.map((c) => ({ ...c, id: c.id + '-' + r })) });
  else if (e.kind === 'tool') events.push({ ...e, callId: e.callId + '-' + r, text: e.text + `\n# rep ${r}` });
  else events.push(e);
}
console.log('events', events.length);
for (let k = 0; k < 5; k++) {
  const m = new ContextManager({}, await createSnippetExtractor());
  const t0 = performance.now(); m.recordAll(events); const t1 = performance.now(); const c = m.assemble({ budget: 16384 }); const t2 = performance.now();
  console.log('cold record', (t1 - t0).toFixed(1), 'assemble', (t2 - t1).toFixed(1), c.tokens);
}
