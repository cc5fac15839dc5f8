/** What a per-client set-up gets: where the throwaway HOME is and where the model server listens. */
export interface ClientSetupInput {
  /** The scripted model server, `http://127.0.0.1:PORT` (no path). */
  serverUrl: string;
  /** The workspace the client runs in (a git repository). */
  cwd: string;
  /** A throwaway HOME, already created. */
  home: string;
  /** The model to ask for; each client has a default that works with the scripted server. */
  model?: string;
  /** Codex only: more TOML for `$CODEX_HOME/config.toml`, placed before every table (top-level keys and tables). */
  codexToml?: string;
}

/** How a prompt reaches the CLI: as an argument (after `--` where the CLI supports it) or on stdin. */
export type PromptVia = 'argv' | 'stdin';

export interface HeadlessOptions {
  /** @default the client's safe way for any prompt (see each set-up) */
  promptVia?: PromptVia;
  /** More arguments, placed where the CLI accepts options (before the prompt). */
  extraArgs?: readonly string[];
}

/** One client's configuration against the model server, and its headless invocation. */
export interface ClientSetup {
  /** Variables to set over the cleaned environment (HOME included). */
  env: Record<string, string>;
  /**
   * The client's user config folder inside the throwaway HOME: `~/.claude`, `~/.gemini`,
   * `$CODEX_HOME` (`~/.codex`) or `$COPILOT_HOME` (`~/.copilot`).
   */
  configDir: string;
  /** The safe default for `promptVia`. */
  promptVia: PromptVia;
  /** Arguments after the bin, and stdin, for a headless run of `prompt`. */
  headless(prompt: string, options: HeadlessOptions): { args: string[]; input?: string };
  /** The model's final answer, read from the client's stdout (undefined when it cannot be found). */
  finalText(stdout: string): string | undefined;
}
