/**
 * The commented configuration `baton init` writes. JSON has no comments, so each setting's
 * explanation lives in a sibling "//" key that the config loader ignores.
 */
export const CONFIG_TEMPLATE = `${JSON.stringify(
  {
    '//': 'Baton configuration. Keys starting with "//" are comments. Docs: docs/configuration.md',
    '//ledger': 'Where the ledger lives: sqlite:PATH, redis://HOST:PORT/DB or memory. BATON_LEDGER overrides.',
    ledger: 'sqlite:.baton/agent.db',
    '//providers':
      'Agents Baton may run. type: gemini | copilot | cursor | codex | claude | http | command. Agent CLIs take binary, model, env, args and permissions (edits | workspace (default) | full): docs/supervisor.md.',
    providers: {},
    '//priority': 'Order in which providers are tried; open circuit breakers are skipped.',
    priority: ['gemini', 'copilot', 'cursor', 'codex', 'claude'],
    '//preContext': 'Pre-context injection (seed 000). Env vars ENABLE_PRE_CONTEXT_INJECTION etc. override.',
    preContext: { enabled: true, maxLines: 10, types: ['circuit_breaker', 'retry', 'helper'], maxFiles: 3, helperMaxAttempts: 2 },
    '//recentHistoryWindow': 'How many completed tasks every prompt shows in recent_history (3-5).',
    recentHistoryWindow: 5,
  },
  null,
  2,
)}\n`;
