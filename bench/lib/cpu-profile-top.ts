/**
 * `node --import tsx bench/lib/cpu-profile-top.ts FILE.cpuprofile [--top N] [--after MS]`: what a V8 CPU
 * profile (`node --cpu-prof`) spent its time on. Prints the top functions by self time, then the
 * longest busy stretches (consecutive samples that are not "(idle)", i.e. one event-loop turn or a
 * few back to back) with the functions that filled each: the stretches over 50 ms are the stalls
 * a load benchmark's event-loop delay measures.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)', '(program)']);

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, '~/')
    .replace(/^.*\/(src|dist)\//, '$1/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

function top(counts: Map<string, number>, n: number): string[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
}

function main(args: string[]): void {
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new Error('usage: cpu-profile-top.ts FILE.cpuprofile [--top N]');
  const n = Number(args[args.indexOf('--top') + 1] ?? 25) || 25;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const afterMs = Number(args[args.indexOf('--after') + 1] ?? 0) || 0;
  const stretches: { at: number; us: number; self: Map<string, number> }[] = [];
  let current: { at: number; us: number; self: Map<string, number> } | undefined;
  let clock = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[i + 1] ?? 0;
    clock += profile.timeDeltas[i] ?? 0;
    if (!node || clock < afterMs * 1000) return;
    const name = label(node);
    self.set(name, (self.get(name) ?? 0) + us);
    if (IDLE.has(node.callFrame.functionName)) {
      if (current) stretches.push(current);
      current = undefined;
      return;
    }
    current ??= { at: clock, us: 0, self: new Map() };
    current.us += us;
    current.self.set(name, (current.self.get(name) ?? 0) + us);
  });
  if (current) stretches.push(current);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n\ntop self time:`);
  for (const line of top(self, n)) console.log(line);
  const longest = stretches.sort((a, b) => b.us - a.us).slice(0, 8);
  const at = (s: { at: number }) => `at ${(s.at / 1e6).toFixed(2)} s`;
  console.log(`\nlongest busy stretches: ${longest.map((s) => `${(s.us / 1000).toFixed(1)} ms ${at(s)}`).join(', ')}`);
  for (const stretch of longest.slice(0, 4)) {
    console.log(`\n${(stretch.us / 1000).toFixed(1)} ms stretch ${at(stretch)}:`);
    for (const line of top(stretch.self, 12)) console.log(line);
  }
}

main(process.argv.slice(2));
