import { silentLogger } from './src/observability/index.js';
import { buildHelperContext, buildProviderSwitchContext, buildRetryContext } from './src/precontext/index.js';
const mod = await import('./bench/precontext.ts');
