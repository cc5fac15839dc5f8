// The light face of hooks/: what session import and `baton status` need (where the workspace's
// `.baton/` is, a session's summary), without the context renderer and the tokenizer that the
// index's injection code loads. index.ts re-exports it all; refresh/light.ts says why.
export { findBatonWorkspace } from './hook-paths.js';
export { summarizeSession } from './session-summary.js';
// A prompt in the user's own words (Gemini puts Baton's SessionStart context in front of it).
export { userPrompt } from './parse-hook-input.js';
// What a command that reads sessions waits for: the folds the last Stop/SessionEnd hooks handed off.
export { waitForHookJobs } from './hook-jobs.js';
