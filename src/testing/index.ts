/** Test doubles that ship with Baton, so users' tests can script behaviour instead of mocking. */
export { MemoryLedger } from '../ledger/index.js';
export { fixedClock } from './fixed-clock.js';
export { ScriptedProvider } from './scripted-provider.js';
export type { FixedClock } from './fixed-clock.js';
export type { ScriptedStep } from './scripted-provider.js';
