// The scripted model server inside the real claude CLI: see agent-clis-suite.ts.
import { agentCliSuite } from './agent-clis-suite.js';

agentCliSuite('claude');
