import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ClientSetup, ClientSetupInput } from './client-setup.js';
import { clientDir } from './ensure-client.js';

/** A model Copilot knows (its tool set and token limits): with it, it offers `bash`, `create`, `edit`, `view`. */
export const COPILOT_DEFAULT_MODEL = 'gpt-4.1';

/**
 * Copilot CLI 1.0.102 with its own model provider ("bring your own key"), no GitHub login:
 * `COPILOT_PROVIDER_BASE_URL=URL/v1` (type `openai`, wire API `completions`: it calls
 * `POST /v1/chat/completions`, streaming), a dummy `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`,
 * `COPILOT_OFFLINE=true` (no GitHub auth, telemetry, GitHub MCP server or update check) and
 * `COPILOT_HOME=~/.copilot`. The npm package is a launcher that unpacks ~235 MB on first run into
 * `COPILOT_PKG_CACHE_HOME`, kept in the clients cache so a throwaway HOME does not unpack it again.
 * Headless: `copilot -s --allow-all-tools --no-auto-update --prompt=PROMPT` (`-s`: only the answer
 * on stdout; `-p ---…` fails "Invalid command format"), or the prompt on stdin without `-p`.
 */
export function copilotSetup({ serverUrl, home, model = COPILOT_DEFAULT_MODEL }: ClientSetupInput): ClientSetup {
  const configDir = path.join(home, '.copilot');
  mkdirSync(configDir, { recursive: true });
  return {
    env: {
      COPILOT_HOME: configDir,
      COPILOT_PKG_CACHE_HOME: path.join(clientDir('copilot'), 'pkg-cache'),
      COPILOT_PROVIDER_BASE_URL: `${serverUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: 'sk-scripted-test-key',
      COPILOT_MODEL: model,
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
    },
    configDir,
    promptVia: 'argv',
    headless: (prompt, { promptVia = 'argv', extraArgs = [] }) => {
      const args = ['-s', '--allow-all-tools', '--no-auto-update', ...extraArgs];
      return promptVia === 'stdin' ? { args, input: prompt } : { args: [...args, `--prompt=${prompt}`] };
    },
    finalText: (stdout) => stdout.trim() || undefined,
  };
}
