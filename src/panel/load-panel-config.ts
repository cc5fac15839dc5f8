import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError, errorMessage } from '../errors/index.js';
import { describeJsonError, parseInput } from '../util/index.js';
import { type HttpModelSpecInput, type ModelSpecInput, type PanelFile, panelFileSchema } from './panel-schema.js';
import { parsePromptFile } from './parse-prompt-file.js';
import type { PanelConfig, PanelHttpModelSpec, PanelModelSpec } from './types.js';
import { loadOptionsSchema, resolveOptionsSchema } from './panel-options-schema.js';

export interface LoadPanelConfigOptions {
  /** Base of a relative panel path. @default process.cwd() */
  cwd?: string;
  /** Where `{"env":"VAR"}` API keys are read. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/**
 * Reads and validates a panel file: JSON shape (zod), prompt files (relative to the panel file,
 * each with version front matter) and `{"env":"VAR"}` API keys.
 *
 * @throws BatonError('CONFIG_INVALID') naming the file and the field path (e.g.
 * `agents[1].model.provider`) or the prompt file at fault.
 * @example
 * const config = await loadPanelConfig('examples/panel/panel.json');
 */
export async function loadPanelConfig(file: string, options: LoadPanelConfigOptions = {}): Promise<PanelConfig> {
  parseInput(loadOptionsSchema, options, { what: 'loadPanelConfig options' });
  const absolute = path.resolve(options.cwd ?? process.cwd(), file);
  let raw: string;
  try {
    raw = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new BatonError('CONFIG_INVALID', `Cannot read panel file ${absolute}: ${errorMessage(error)}`, {
      cause: error,
      details: { file: absolute },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new BatonError('CONFIG_INVALID', `Panel file ${absolute} is not valid JSON: ${describeJsonError(raw, error)}`, {
      details: { file: absolute },
    });
  }
  return resolvePanelConfig(json, { file: absolute, env: options.env });
}

/**
 * Validates an already-parsed panel object; prompt paths resolve against `options.file`'s folder.
 * Same errors as `loadPanelConfig`.
 */
export async function resolvePanelConfig(value: unknown, options: { file: string; env?: NodeJS.ProcessEnv }): Promise<PanelConfig> {
  parseInput(resolveOptionsSchema, options, { what: 'resolvePanelConfig options' });
  const { file } = options;
  const env = options.env ?? process.env;
  const panel: PanelFile = parseInput(panelFileSchema, value, { what: `Panel file ${file}`, details: { file } });
  const dir = path.dirname(file);
  const agents = await Promise.all(
    panel.agents.map(async (agent, i) => {
      const field = `agents[${i}]`;
      const promptFile = path.resolve(dir, agent.prompt);
      let content: string;
      try {
        content = await readFile(promptFile, 'utf8');
      } catch (error) {
        throw new BatonError(
          'CONFIG_INVALID',
          `${file}: ${field}.prompt: cannot read prompt file ${promptFile} (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}); paths are relative to the panel file`,
          { details: { file, field: `${field}.prompt`, value: agent.prompt } },
        );
      }
      return {
        name: agent.name,
        prompt: parsePromptFile(content, promptFile),
        model: resolveModel(agent.model, env, file, `${field}.model`),
        maxContextTokens: agent.maxContextTokens,
        maxOutputTokens: agent.maxOutputTokens,
        timeoutMs: agent.timeoutMs,
        summaryModel: agent.summaryModel && resolveHttpModel(agent.summaryModel, env, file, `${field}.summaryModel`),
      };
    }),
  );
  return {
    attribution: panel.attribution,
    maxContextTokens: panel.maxContextTokens,
    maxOutputTokens: panel.maxOutputTokens,
    timeoutMs: panel.timeoutMs,
    summaryModel: panel.summaryModel && resolveHttpModel(panel.summaryModel, env, file, 'summaryModel'),
    agents,
    file,
  };
}

function resolveModel(spec: ModelSpecInput, env: NodeJS.ProcessEnv, file: string, field: string): PanelModelSpec {
  if (spec.provider === 'baton') return { provider: 'baton', name: spec.name, model: spec.model };
  return resolveHttpModel(spec, env, file, field);
}

function resolveHttpModel(spec: HttpModelSpecInput, env: NodeJS.ProcessEnv, file: string, field: string): PanelHttpModelSpec {
  let apiKey: string | undefined;
  if (typeof spec.apiKey === 'string') apiKey = spec.apiKey;
  else if (spec.apiKey) {
    apiKey = env[spec.apiKey.env];
    if (!apiKey) {
      throw new BatonError('CONFIG_INVALID', `${file}: ${field}.apiKey: environment variable ${spec.apiKey.env} is not set`, {
        details: { file, field: `${field}.apiKey`, value: spec.apiKey.env },
      });
    }
  }
  return { provider: spec.provider, model: spec.model, baseURL: spec.baseURL, apiKey, headers: spec.headers };
}
