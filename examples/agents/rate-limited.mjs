#!/usr/bin/env node
// Example agent for `baton demo`: a provider that is out of requests. Like a real CLI it prints
// the error, and like a `command` provider may, it ends with one JSON outcome line.
import { readFileSync } from 'node:fs';

readFileSync(0, 'utf8');
const resetAt = new Date(Date.now() + 60_000).toISOString();
console.error('429 Too Many Requests: rate limit exceeded, try again in 60s');
console.log(JSON.stringify({ outcome: 'rate_limited', resetAt, reason: 'rate limit exceeded (429)' }));
process.exit(1);
