/**
 * Baton's hooks inside the real Gemini CLI (pinned 0.61.0), headless, against the scripted model
 * server, installed with `baton hooks install` into a project that has Baton as a dev dependency:
 * a session's file and failure in its resumes and in the next session's first request; hooks that
 * hang or fail leave the run and its model requests as they are without hooks.
 */
import { hangOrFailSuite, sessionCarrySuite, useClients } from '../helpers/hooks-real-clients/index.js';

const available = useClients(['gemini'], 'hooks');

sessionCarrySuite('gemini', available);
hangOrFailSuite('gemini', available);
