import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ClientSetup, ClientSetupInput } from './client-setup.js';
import { clientDir } from './ensure-client.js';

/** The provider and model ids the set-up names in OpenCode's config. */
export const OPENCODE_PROVIDER = 'scripted';
export const OPENCODE_DEFAULT_MODEL = 'scripted-model';

/**
 * OpenCode 1.18.33 (`opencode-ai`: a launcher and a ~185 MB bun-compiled binary per platform)
 * against an OpenAI-compatible chat completions endpoint: its config, given whole in
 * `OPENCODE_CONFIG_CONTENT`, names a provider `scripted` (npm `@ai-sdk/openai-compatible`, bundled
 * in the binary; `baseURL` URL/v1, a dummy `apiKey`; it calls `POST /v1/chat/completions`,
 * streaming) with one model with tool calls, as both `model` and `small_model` (the title request),
 * every permission allowed, no autoupdate, no share; `OPENCODE_DISABLE_MODELS_FETCH` (no
 * models.dev), no LSP download. On its first start in a HOME it installs `@opencode-ai/plugin` into
 * `~/.config/opencode` with npm (from the npm registry): its npm cache is kept in the clients cache.
 * Sessions go to `~/.local/share/opencode/opencode.db` (SQLite; `XDG_DATA_HOME` and `OPENCODE_DB`
 * move it). It takes the session's directory from `$PWD` (the set-up sets it to `cwd`). Headless: `opencode run --format json` with the prompt on stdin (kept exactly), or as
 * `-- PROMPT` (OpenCode then stores a message with spaces in double quotes).
 */
export function opencodeSetup({ serverUrl, cwd, home, model = OPENCODE_DEFAULT_MODEL }: ClientSetupInput): ClientSetup {
  const configDir = path.join(home, '.config', 'opencode');
  mkdirSync(configDir, { recursive: true });
  const config = {
    provider: {
      [OPENCODE_PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted test model',
        options: { baseURL: `${serverUrl}/v1`, apiKey: 'sk-scripted-test-key' },
        models: { [model]: { name: model, tool_call: true } },
      },
    },
    model: `${OPENCODE_PROVIDER}/${model}`,
    small_model: `${OPENCODE_PROVIDER}/${model}`,
    autoupdate: false,
    share: 'disabled',
    permission: { edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'allow' },
  };
  return {
    env: {
      // OpenCode takes its directory from $PWD, as a shell sets it, not from the process's cwd.
      PWD: cwd,
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_DISABLE_AUTOUPDATE: 'true',
      OPENCODE_DISABLE_MODELS_FETCH: 'true',
      OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
      npm_config_cache: path.join(clientDir('opencode'), 'npm-cache'),
    },
    configDir,
    promptVia: 'stdin',
    headless: (prompt, { promptVia = 'stdin', extraArgs = [] }) => {
      const args = ['run', '--format', 'json', ...extraArgs];
      return promptVia === 'stdin' ? { args, input: prompt } : { args: [...args, '--', prompt] };
    },
    finalText: lastText,
  };
}

/** The text of the last `text` event of `opencode run --format json`. */
function lastText(stdout: string): string | undefined {
  let text: string | undefined;
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const event = JSON.parse(line) as { type?: string; part?: { text?: string } };
      if (event.type === 'text' && typeof event.part?.text === 'string') text = event.part.text;
    } catch {
      // Not an event line.
    }
  }
  return text;
}
