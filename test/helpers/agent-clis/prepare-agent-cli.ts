import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claudeSetup } from './claude.js';
import type { ClientSetup, ClientSetupInput, HeadlessOptions, PromptVia } from './client-setup.js';
import { codexSetup } from './codex.js';
import { copilotSetup } from './copilot.js';
import { ensureClient } from './ensure-client.js';
import { geminiSetup } from './gemini.js';
import { opencodeSetup } from './opencode.js';
import { type ProcessResult, runProcess } from './run-process.js';
import { AGENT_CLI_PACKAGES, type ModelCliName } from './versions.js';

const SETUPS: Record<ModelCliName, (input: ClientSetupInput) => ClientSetup> = {
  claude: claudeSetup,
  gemini: geminiSetup,
  codex: codexSetup,
  copilot: copilotSetup,
  opencode: opencodeSetup,
};

/** @default 180 s: a headless run with a few scripted turns takes 5-40 s on a loaded machine. */
export const DEFAULT_RUN_TIMEOUT_MS = 180_000;

export interface PrepareAgentCliOptions {
  /** The scripted model server's `url`. */
  serverUrl: string;
  /** The workspace the client runs in. */
  cwd: string;
  /** The model to ask for (default: one each client knows, see its set-up). */
  model?: string;
  /** Codex only: more config.toml (top-level keys and tables), e.g. `tool_output_token_limit = 12000`. */
  codexToml?: string;
  /** More environment for every run. */
  env?: Record<string, string>;
}

export interface AgentRunOptions extends HeadlessOptions {
  /** @default DEFAULT_RUN_TIMEOUT_MS; the whole process group is killed when it passes. */
  timeoutMs?: number;
  /** More environment for this run. */
  env?: Record<string, string>;
}

export interface AgentRun extends ProcessResult {
  /** The model's final answer as the client printed it. */
  finalText: string | undefined;
}

/** A pinned agent CLI pointed at a model server, in a throwaway HOME. */
export interface AgentCli {
  name: ModelCliName;
  /** e.g. "Codex CLI 0.171.0". */
  title: string;
  bin: string;
  cwd: string;
  /** The throwaway HOME (removed by `cleanup`). */
  home: string;
  /** The client's config folder in it: `~/.claude`, `~/.gemini`, `$CODEX_HOME`, `$COPILOT_HOME`. */
  configDir: string;
  /** The whole environment a run gets. */
  env: NodeJS.ProcessEnv;
  /**
   * Only what this set-up adds (HOME, the client's endpoint, key and config variables), for a
   * config that takes an env map over the inherited one, such as a Baton provider's `env`.
   */
  ownEnv: Record<string, string>;
  /** How `run` passes a prompt by default (the way that works for any prompt, `---` included). */
  promptVia: PromptVia;
  /** The command line of a headless run, for a test that spawns it itself (e.g. through `baton run`). */
  invocation(prompt: string, options?: HeadlessOptions): { command: string; args: string[]; input?: string };
  /** Runs the client headless on `prompt` in `cwd` to the end. */
  run(prompt: string, options?: AgentRunOptions): Promise<AgentRun>;
  cleanup(): void;
}

/**
 * Sets up one pinned agent CLI against a model server through env and config only, in a
 * throwaway HOME (`mkdtemp`), and returns how to run it headless. Throws when the client is not
 * installed and cannot be (use `ensureClients` in `beforeAll` to skip visibly instead).
 */
export async function prepareAgentCli(name: ModelCliName, options: PrepareAgentCliOptions): Promise<AgentCli> {
  const { bin, reason } = await ensureClient(name);
  if (!bin) throw new Error(`${AGENT_CLI_PACKAGES[name].title} is not available: ${reason}`);
  const home = mkdtempSync(path.join(os.tmpdir(), `baton-${name}-home-`));
  const setup = SETUPS[name]({ serverUrl: options.serverUrl, cwd: options.cwd, home, model: options.model, codexToml: options.codexToml });
  const ownEnv = { HOME: home, ...setup.env, ...options.env };
  const env: NodeJS.ProcessEnv = { ...cleanEnvironment(), ...ownEnv };
  const invocation = (prompt: string, headless: HeadlessOptions = {}) => ({ command: bin, ...setup.headless(prompt, headless) });
  return {
    name,
    title: `${AGENT_CLI_PACKAGES[name].title} ${AGENT_CLI_PACKAGES[name].version}`,
    bin,
    cwd: options.cwd,
    home,
    configDir: setup.configDir,
    env,
    ownEnv,
    promptVia: setup.promptVia,
    invocation,
    run: async (prompt, { timeoutMs = DEFAULT_RUN_TIMEOUT_MS, env: runEnv, ...headless } = {}) => {
      const { command, args, input } = invocation(prompt, headless);
      const result = await runProcess(command, args, { cwd: options.cwd, env: { ...env, ...runEnv }, timeoutMs, input });
      return { ...result, finalText: setup.finalText(result.stdout) };
    },
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** Variables that would point a client elsewhere (real keys, other homes, the test runner's own). */
const LEAKY = /^(ANTHROPIC|CLAUDE|GEMINI|GOOGLE|OPENAI|CODEX|COPILOT|GH|GITHUB|VITEST|XDG)_|^(NODE_OPTIONS|NODE_ENV|CI|TEST)$/;

/** This process's environment without anything that would point a client elsewhere. */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !LEAKY.test(name)));
}
