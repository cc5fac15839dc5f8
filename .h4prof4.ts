import { silentLogger } from './src/observability/index.js';
import { buildRetryContext, buildHelperContext, buildProviderSwitchContext } from './src/precontext/index.js';
const bench = await import('./bench/precontext.ts');
