export {
  afterSuite,
  copies,
  FAILURE,
  type Harness,
  harness,
  MISSING_DIR,
  resumeArgs,
  sessionIdOf,
  sessionRecord,
  TEST_TIMEOUT_MS,
  useClients,
  workingSession,
} from './harness.js';
export { hangOrFailSuite, sessionCarrySuite } from './suites.js';
