import { buildRetryContext, buildHelperContext, buildProviderSwitchContext } from './src/precontext/index.js';
import { silentLogger } from './src/observability/index.js';
import { countTokens } from './src/tokens/index.js';
const WORDS = ['auth', 'routes', 'endpoint', 'registered', 'coverage', 'missing', 'test', 'returns', '404', 'config'];
let s = 1; const r = () => ((s = (s * 16807) % 2147483647) / 2147483647);
const sentence = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
const mk = () => [{ attempt: 2, provider: 'gemini', outcome: 'timeout', filesCreated: ['src/routes/auth-12.ts', 'app/components/x-1.ts', 'lib/y-2.ts', 'lib/z.ts'], filesUpdated: ['src/a.ts','src/b.ts'], validationErrors: [sentence(14), sentence(12), sentence(10), sentence(9)] }];
const cases = Array.from({ length: 2000 }, mk);
for (const c of cases) buildRetryContext({ attempt: 3, dispatches: c, logger: silentLogger });
const times: number[] = [];
for (const c of cases) { const t = process.hrtime.bigint(); const b = buildRetryContext({ attempt: 3, dispatches: c, logger: silentLogger }); times.push(Number(process.hrtime.bigint() - t) / 1e6); }
times.sort((a, b) => a - b);
console.log('p50', times[1000], 'p99', times[1980], 'max', times.at(-1));
const b = buildRetryContext({ attempt: 3, dispatches: cases[0]!, logger: silentLogger }); console.log(b, countTokens(b));
