// find slowest histories (min of 5) using the bench generator copy
import { silentLogger } from './src/observability/index.js';
import { buildRetryContext, buildHelperContext, buildProviderSwitchContext } from './src/precontext/index.js';
import { countTokens } from './src/tokens/index.js';
const src = await import('node:fs').then((fs) => fs.readFileSync('./bench/precontext.ts', 'utf8'));
