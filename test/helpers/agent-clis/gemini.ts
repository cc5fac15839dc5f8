import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jsonField } from './claude.js';
import type { ClientSetup, ClientSetupInput } from './client-setup.js';

/**
 * Gemini CLI 0.61.0 against the Gemini API: `GOOGLE_GEMINI_BASE_URL` (it adds
 * `/v1beta/models/M:streamGenerateContent?alt=sse`), a dummy `GEMINI_API_KEY`, the api-key auth
 * type in `~/.gemini/settings.json` (without it the CLI asks how to log in), a trusted workspace
 * (`GEMINI_CLI_TRUST_WORKSPACE=true`; an untrusted folder exits 55 and ignores project settings
 * and hooks), no usage statistics, no auto-update, no relaunch into a bigger heap. Headless: `gemini -o json --approval-mode
 * yolo`, the prompt as `--prompt=TEXT` (one argument, so a prompt starting with `---` is not
 * read as an option; `-p ---…` fails "Not enough arguments following: p"), or on stdin without `-p`. Hooks: `.gemini/settings.json` in the workspace or `~/.gemini/settings.json`.
 */
export function geminiSetup({ serverUrl, home, model }: ClientSetupInput): ClientSetup {
  const configDir = path.join(home, '.gemini');
  mkdirSync(configDir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
  writeFileSync(path.join(configDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return {
    env: {
      GOOGLE_GEMINI_BASE_URL: serverUrl,
      GEMINI_API_KEY: 'scripted-gemini-key',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      // It otherwise starts a second node with a larger heap: 3-4 s per run on a loaded machine.
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
    configDir,
    promptVia: 'argv',
    headless: (prompt, { promptVia = 'argv', extraArgs = [] }) => {
      const args = ['-o', 'json', '--approval-mode', 'yolo'];
      if (model) args.push('--model', model);
      args.push(...extraArgs);
      return promptVia === 'stdin' ? { args, input: prompt } : { args: [...args, `--prompt=${prompt}`] };
    },
    finalText: (stdout) => jsonField(stdout, 'response'),
  };
}
