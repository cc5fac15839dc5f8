import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { BatonError, errorMessage } from '../errors/index.js';
import type { PanelPrompt } from './types.js';

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

/**
 * Reads a prompt file's front matter (`---\nname: tactics-coach\nversion: 1.2.0\n---`) and body.
 * Pure: `file` is only used in messages and as the fallback name.
 *
 * @throws BatonError('CONFIG_INVALID') naming the file when the front matter is missing, is not
 * YAML, or has no semantic `version`, or when the body is empty.
 */
export function parsePromptFile(content: string, file: string): PanelPrompt {
  const match = FRONT_MATTER.exec(content);
  if (!match) {
    throw invalid(file, 'has no front matter: start it with ---, a "version: 1.0.0" line and ---');
  }
  let meta: unknown;
  try {
    meta = parseYaml(match[1] ?? '');
  } catch (error) {
    throw invalid(file, `has front matter that is not valid YAML: ${errorMessage(error)}`);
  }
  const fields = (typeof meta === 'object' && meta !== null ? meta : {}) as Record<string, unknown>;
  const version = fields.version;
  if (typeof version !== 'string' || !VERSION.test(version)) {
    throw invalid(file, `needs a "version" in its front matter like 1.2.0 (got ${JSON.stringify(version ?? null)})`);
  }
  const text = content.slice(match[0].length).trim();
  if (!text) throw invalid(file, 'has no prompt text after its front matter');
  const name = typeof fields.name === 'string' && fields.name.trim() ? fields.name.trim() : path.basename(file, path.extname(file));
  return { name, version, text, file };
}

function invalid(file: string, problem: string): BatonError {
  return new BatonError('CONFIG_INVALID', `Prompt file ${file} ${problem}`, { details: { file } });
}
