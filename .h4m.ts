import { maskSecretsSync } from './src/redact/index.js';
import { countTokens } from './src/tokens/index.js';
const vals = Array.from({ length: 5000 }, (_, i) => `auth routes not registered correctly endpoint returns 404 coverage missing ${i} src/routes/auth-${i}.ts, app/components/x-${i}.tsx`);
for (const v of vals) maskSecretsSync(v);
let t = process.hrtime.bigint(); for (const v of vals) maskSecretsSync(v); console.log('mask per value µs', Number(process.hrtime.bigint() - t) / 1e3 / vals.length);
t = process.hrtime.bigint(); for (const v of vals) countTokens(v); console.log('count per value µs', Number(process.hrtime.bigint() - t) / 1e3 / vals.length, vals[0].length);
