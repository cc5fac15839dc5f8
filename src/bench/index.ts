/**
 * The context-replay harness (`baton bench context`, `npm run bench -- context`), published as the
 * `agent-baton/bench` subpath rather than from the library root: it measures Baton, it is not part of
 * what a user builds with.
 */
export { appendHistory, buildFull, buildRecency, MASK_KEEP_OUTPUTS, maskOldOutputs, splitHistory } from './replay/baseline-strategies.js';
export type { SplitHistory } from './replay/baseline-strategies.js';
export { readSessionReplays, SHARED_SESSIONS_DIR, STAND_IN_SYSTEM_PROMPT } from './sessions/read-session-replays.js';
export { DEFAULT_FACT_BUDGETS, FACT_STRATEGIES, runFactBench } from './sessions/run-fact-bench.js';
export { toAnthropicSession, toModelMessagesSession, toOpenAISession } from './sessions/session-messages.js';
export { sessionReplay } from './sessions/session-replay.js';
export { sessionTurns } from './sessions/session-turns.js';
export { factEventsOfLoop, trajectoryReplay } from './sessions/trajectory-replay.js';
export { defaultTrajectoryFiles, expandTrajectoryPaths, parseBudgets, SHARED_TRAJECTORY_DIR } from './replay/default-trajectory-files.js';
export { extractKeyFacts, FACT_ERROR_LINE, goalFact, scoreFacts } from './replay/key-facts.js';
export { extractSessionFacts, FACT_HEAD_CHARS, FACT_LAST_ACTIONS, FACT_LINE_CHARS, requestHead } from './facts/extract-session-facts.js';
export { baseName, linesKept, scoreSessionFacts } from './facts/score-session-facts.js';
export { FACT_NAMES } from './facts/types.js';
export { isOpenHandsInstances, readOpenHandsEvents, readOpenHandsInstances } from './replay/read-openhands-events.js';
export { readSweAgentTrajectory } from './replay/read-swe-agent-trajectory.js';
export { readTrajectories, readTrajectory } from './replay/read-trajectory.js';
export { DEFAULT_BENCH_BUDGETS, quantile, runContextBench, STRATEGIES } from './replay/run-context-bench.js';
export type { KeyFacts } from './replay/key-facts.js';
export type { FactScores } from './facts/score-session-facts.js';
export type { FactEvent, FactName, FactToolCall, SessionFacts } from './facts/types.js';
export type { ContextBenchOptions, ContextBenchReport, StrategyName, StrategyScore } from './replay/run-context-bench.js';
export type { Trajectory } from './replay/types.js';
export type { Replay } from './sessions/replay.js';
export type { FactBenchOptions, FactBenchReport, FactStrategy, FactStrategyScore } from './sessions/run-fact-bench.js';
export type { SessionTurn } from './sessions/session-turns.js';
export { CONTINUES_TOKENS, continuesHandoff } from './handoff/continues-handoff.js';
