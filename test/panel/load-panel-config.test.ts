import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BatonError, isBatonError } from '../../src/errors/index.js';
import { loadPanelConfig, parsePromptFile } from '../../src/panel/index.js';
import { writePanel } from './panel-fixture.js';

const BASE_URL = 'http://127.0.0.1:9/v1';

/** Rewrites the fixture panel file through `edit` and returns the load error. */
async function loadError(edit: (panel: { agents: Array<Record<string, unknown>> } & Record<string, unknown>) => void): Promise<BatonError> {
  const file = await writePanel(BASE_URL, { agents: ['technique', 'science'] });
  const panel = JSON.parse(await readFile(file, 'utf8'));
  edit(panel);
  await writeFile(file, JSON.stringify(panel));
  const error = await loadPanelConfig(file).catch((e: unknown) => e);
  if (!isBatonError(error)) throw new Error(`expected a BatonError, got ${String(error)}`);
  return error;
}

describe('loadPanelConfig', () => {
  it('loads agents with prompts resolved relative to the panel file and their versions', async () => {
    const file = await writePanel(BASE_URL, { agents: ['technique', 'science'] });
    const config = await loadPanelConfig(path.basename(file), { cwd: path.dirname(file) });
    expect(config.attribution).toBe('assistant');
    expect(config.agents.map((a) => [a.name, a.prompt.name, a.prompt.version, a.prompt.file])).toEqual([
      ['technique', 'technique-coach', '1.2.0', path.join(path.dirname(file), 'prompts', 'technique.md')],
      ['science', 'science-coach', '1.2.0', path.join(path.dirname(file), 'prompts', 'science.md')],
    ]);
    expect(config.agents[0]?.prompt.text).toBe('You are the technique coach. Explain stroke mechanics.');
  });

  it('loads the shipped example', async () => {
    const config = await loadPanelConfig('examples/panel/panel.json', { env: { DASHSCOPE_API_KEY: 'k' } });
    expect(config.agents.length).toBeGreaterThanOrEqual(3);
    expect(config.agents.every((a) => /^\d+\.\d+\.\d+$/.test(a.prompt.version))).toBe(true);
  });

  it('reads {"env":"VAR"} API keys from the environment, and names the variable when it is unset', async () => {
    const file = await writePanel(BASE_URL, {
      agents: ['technique'],
      agent: { model: { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: { env: 'PANEL_KEY' } } },
    });
    const config = await loadPanelConfig(file, { env: { PANEL_KEY: 'secret' } });
    expect(config.agents[0]?.model).toMatchObject({ apiKey: 'secret' });
    const error = (await loadPanelConfig(file, { env: {} }).catch((e: unknown) => e)) as BatonError;
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('agents[0].model.apiKey: environment variable PANEL_KEY is not set');
  });

  it('names an unknown key with the spelling expected', async () => {
    const error = await loadError((panel) => {
      panel.agents[0]!.system_prompt = 'x';
    });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/^Panel file .*panel\.json: agents\[0\]: unknown key "system_prompt" \(/);
    expect(error.details.field).toBe('agents[0].system_prompt');
  });

  it('names the file and field of an unknown provider', async () => {
    const error = await loadError((panel) => {
      (panel.agents[1]!.model as Record<string, unknown>).provider = 'dashscope';
    });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/^Panel file .*panel\.json/);
    expect(error.message).toContain('agents[1].model.provider');
    expect(error.details.field).toBe('agents[1].model.provider');
  });

  it('names the field of a missing model and of a missing baseURL', async () => {
    const error = await loadError((panel) => {
      const model = panel.agents[0]!.model as Record<string, unknown>;
      model.model = '';
      delete model.baseURL;
    });
    expect(error.message).toContain('agents[0].model.model: must name a model');
    expect(error.message).toContain('agents[0].model.baseURL: must be the API base URL (required for openai-compatible)');
  });

  it('names the field and path of a missing prompt file', async () => {
    const error = await loadError((panel) => {
      panel.agents[1]!.prompt = 'prompts/missing.md';
    });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('agents[1].prompt');
    expect(error.message).toContain(path.join('prompts', 'missing.md'));
  });

  it('rejects unknown keys, duplicate names and an empty agent list', async () => {
    const misspelt = await loadError((panel) => {
      panel.atribution = 'user';
    });
    expect(misspelt.message).toContain('atribution');
    const duplicate = await loadError((panel) => {
      panel.agents[1]!.name = 'technique';
    });
    expect(duplicate.message).toContain('duplicate agent name "technique"');
    const empty = await loadError((panel) => {
      panel.agents = [];
    });
    expect(empty.message).toContain('agents: must list at least one agent');
  });
});

describe('parsePromptFile', () => {
  it('reads name, version and body from front matter', () => {
    expect(parsePromptFile('---\nname: tactics-coach\nversion: 1.2.0\n---\nYou coach tactics.\n', '/p/tactics.md')).toEqual({
      name: 'tactics-coach',
      version: '1.2.0',
      text: 'You coach tactics.',
      file: '/p/tactics.md',
    });
  });

  it.each([
    ['no front matter', 'You coach tactics.', /has no front matter/],
    ['no version', '---\nname: t\n---\nBody', /needs a "version"/],
    ['a non-semantic version', '---\nversion: 1.2\n---\nBody', /needs a "version".*got 1\.2/],
    ['an empty body', '---\nversion: 1.0.0\n---\n  \n', /has no prompt text/],
  ])('rejects a prompt file with %s, naming the file', (_, content, message) => {
    let error: unknown;
    try {
      parsePromptFile(content, '/p/tactics.md');
    } catch (e) {
      error = e;
    }
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain('/p/tactics.md');
  });
});
