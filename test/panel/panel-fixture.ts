import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Prompt bodies of the fixture agents; the fake server tells agents apart by them. */
export const PROMPTS = {
  technique: 'You are the technique coach. Explain stroke mechanics.',
  science: 'You are the sports science coach. Explain physiology and training load.',
  tactics: 'You are the tactics coach. Explain match strategy.',
} as const;

export type AgentName = keyof typeof PROMPTS;

/** Which fixture agent a system prompt belongs to ('summary' for the summary prompt). */
export function agentOf(system: string): AgentName | 'summary' | undefined {
  if (system.startsWith('You summarize one expert answer')) return 'summary';
  return (Object.keys(PROMPTS) as AgentName[]).find((name) => system.startsWith(PROMPTS[name]));
}

/**
 * Writes a panel file and versioned prompt files into a fresh temporary folder and returns the
 * panel file's path. `panel` fields override the defaults (openai-compatible at `baseURL`).
 */
export async function writePanel(
  baseURL: string,
  options: { agents?: AgentName[]; panel?: Record<string, unknown>; agent?: Record<string, unknown> } = {},
): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'baton-panel-'));
  await mkdir(path.join(dir, 'prompts'));
  const agents = options.agents ?? ['technique', 'science', 'tactics'];
  for (const name of agents) {
    await writeFile(path.join(dir, 'prompts', `${name}.md`), `---\nname: ${name}-coach\nversion: 1.2.0\n---\n${PROMPTS[name]}\n`);
  }
  const panel = {
    attribution: 'assistant',
    agents: agents.map((name) => ({
      name,
      prompt: `prompts/${name}.md`,
      model: { provider: 'openai-compatible', baseURL, model: 'qwen-plus', apiKey: 'test-key' },
      ...options.agent,
    })),
    ...options.panel,
  };
  const file = path.join(dir, 'panel.json');
  await writeFile(file, JSON.stringify(panel, null, 2));
  return file;
}
