#!/usr/bin/env node
// An agent whose provider is out of requests: reports rate_limited with a reset a minute away.
import { readPrompt } from './log-prompt.mjs';

readPrompt('rate-limited');
const resetAt = new Date(Date.now() + Number(process.env.RESET_IN_MS ?? 60_000)).toISOString();
console.log('Error: 429 Too Many Requests');
console.log(JSON.stringify({ outcome: 'rate_limited', resetAt, reason: 'rate limit exceeded' }));
process.exit(1);
