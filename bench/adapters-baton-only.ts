import { quantile } from '../src/bench/index.js';
import { createContextManager } from '../src/index.js';
import type { RecordedLoop } from './adapters-trajectory.js';

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Baton's own work per model call without a framework: recording the step (the model's action
 * and its output) and assembling the next context, over the recorded loop; a warm-up run, then
 * `runs` runs with a fresh manager each. Wall and CPU time per call, p50/p95.
 */
export async function measureBatonOnly(loop: RecordedLoop, runs: number, limitTokens: number) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let compactions = 0;
  for (let run = -1; run < runs; run += 1) {
    const manager = await createContextManager({ limitTokens });
    manager.record({ kind: 'system', text: loop.system });
    manager.record({ kind: 'user', text: loop.task });
    loop.observations.forEach((text, i) => {
      const step = loop.steps[i];
      const command = step && 'command' in step ? step.command : '';
      const [startedWall, startedCpu] = [performance.now(), cpuMs()];
      manager.record({ kind: 'assistant', text: '', toolCalls: [{ id: `c${i}`, name: 'run', args: { command } }] });
      manager.record({ kind: 'tool', callId: `c${i}`, name: 'run', text });
      const context = manager.assemble();
      if (run < 0) return;
      wall.push(performance.now() - startedWall);
      cpu.push(cpuMs() - startedCpu);
      if (context.compacted) compactions += 1;
    });
  }
  return {
    calls: wall.length,
    compactions,
    wall_ms: { p50: quantile(wall, 0.5), p95: quantile(wall, 0.95), max: quantile(wall, 1) },
    cpu_ms: { p50: quantile(cpu, 0.5), p95: quantile(cpu, 0.95), max: quantile(cpu, 1) },
  };
}
