import type { EnvironmentState } from './types.js';

// Names that tell an agent which tools and accounts are configured; values never leave.
const RELEVANT =
  /^(BATON_|GIT_|NODE_ENV$|CI$|PROJECT|WORKSPACE|VIRTUAL_ENV$|CONDA_|GOOGLE_|GEMINI_|ANTHROPIC_|OPENAI_|CLAUDE_|CURSOR_|GITHUB_|GH_|AWS_PROFILE$|AWS_REGION$|DATABASE_URL$|REDIS_URL$|MCP_)/;

/** Working directory and the names of relevant environment variables (never their values). */
export function readEnvironment(cwd: string, env: NodeJS.ProcessEnv): EnvironmentState {
  return {
    cwd,
    variables: Object.keys(env)
      .filter((name) => RELEVANT.test(name))
      .sort(),
  };
}
