import type { ChainableCommander, Redis } from 'ioredis';

/*
 * Every script receives every key it touches in KEYS and never builds a key name itself:
 * DragonflyDB refuses undeclared keys, and Redis Cluster would route them wrongly.
 */

/**
 * Writes one record hash and adjusts its indexes atomically.
 * KEYS[1]: the record hash; KEYS[2..]: one index key per index op.
 * ARGV: mode ('create' | 'cas' | 'put'), the expected `v` for cas, N, N field/value pairs,
 * then per index key: op ('zadd' | 'zrem', then score, member; 'hset', then field, value).
 * Returns 1, or 0 when create found the hash or cas found another value (nothing written).
 */
const WRITE = `
local mode = ARGV[1]
if mode == 'create' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
elseif mode == 'cas' then
  if redis.call('HGET', KEYS[1], 'v') ~= ARGV[2] then return 0 end
end
local n = tonumber(ARGV[3])
local i = 4
if n > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, i, i + 2 * n - 1)) end
i = i + 2 * n
for k = 2, #KEYS do
  local op = ARGV[i]
  if op == 'zadd' then
    redis.call('ZADD', KEYS[k], ARGV[i + 1], ARGV[i + 2])
  elseif op == 'zrem' then
    redis.call('ZREM', KEYS[k], ARGV[i + 2])
  elseif op == 'hset' then
    redis.call('HSET', KEYS[k], ARGV[i + 1], ARGV[i + 2])
  end
  i = i + 3
end
return 1
`;

/**
 * Appends a dispatch in one round trip: takes the next seq and indexes the dispatch by it.
 * KEYS[1]: seq counter; KEYS[2]: dispatch hash; KEYS[3]: its task's JSON hash; KEYS[4..]: zsets
 * that get (seq, id). ARGV: JSON without seq, taskId, status, id. Returns the seq, or -1 when the
 * id exists.
 */
const APPEND = `
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
local seq = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], 'v', ARGV[1], 'seq', seq, 'taskId', ARGV[2], 'status', ARGV[3])
redis.call('HSET', KEYS[3], ARGV[4], ARGV[1])
for k = 4, #KEYS do redis.call('ZADD', KEYS[k], seq, ARGV[4]) end
return seq
`;

/**
 * Appends a dispatch as the next attempt of its task, in one atomic step: the attempt number is
 * one past the highest attempt among the task's dispatches (read from its JSON hash), so racing
 * callers never share a number. KEYS as APPEND. ARGV: JSON without seq and without attempt,
 * taskId, status, id. Returns {seq, attempt}, or {-1, 0} when the id exists.
 */
const APPEND_NEXT_ATTEMPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then return {-1, 0} end
local highest = 0
for _, v in ipairs(redis.call('HVALS', KEYS[3])) do
  local a = tonumber(cjson.decode(v).attempt) or 0
  if a > highest then highest = a end
end
local attempt = highest + 1
local json = '{"attempt":' .. attempt .. ',' .. string.sub(ARGV[1], 2)
local seq = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], 'v', json, 'seq', seq, 'taskId', ARGV[2], 'status', ARGV[3])
redis.call('HSET', KEYS[3], ARGV[4], json)
for k = 4, #KEYS do redis.call('ZADD', KEYS[k], seq, ARGV[4]) end
return {seq, attempt}
`;

/**
 * A task's newest dispatches in one round trip. KEYS[1]: the task's zset; KEYS[2]: its JSON hash.
 * ARGV[1]: how many. Returns id, seq, JSON (nil when the hash lacks the id) per dispatch, newest
 * first. HMGET goes in slices because unpack() of a long list overflows Lua's stack.
 */
const LAST_DISPATCHES = `
local entries = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
local out = {}
local n = #entries / 2
for first = 1, n, 1000 do
  local last = math.min(n, first + 999)
  local ids = {}
  for i = first, last do ids[#ids + 1] = entries[2 * i - 1] end
  local values = redis.call('HMGET', KEYS[2], unpack(ids))
  for j = 1, #ids do
    local i = first + j - 1
    out[3 * i - 2] = ids[j]
    out[3 * i - 1] = entries[2 * i]
    out[3 * i] = values[j]
  end
end
return out
`;

/**
 * Claims or renews a task lease. KEYS[1]: claim hash; KEYS[2]: set of claimed task ids.
 * ARGV: taskId, owner, leaseMs, leaseUntil. Returns {1} or {0, holder, holderLeaseUntil}. A lease
 * of 0 wins only a free task and lapses at once, as in the memory ledger.
 * Expiry is Redis's own PEXPIRE, so a lapsed lease frees itself even if its owner died.
 */
const CLAIM = `
local holder = redis.call('HGET', KEYS[1], 'owner')
if holder and holder ~= ARGV[2] then
  return {0, holder, redis.call('HGET', KEYS[1], 'until')}
end
if tonumber(ARGV[3]) <= 0 then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return {1}
end
redis.call('HSET', KEYS[1], 'owner', ARGV[2], 'until', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
return {1}
`;

/** Releases a claim held by ARGV[2]. KEYS as CLAIM. Returns 1 when it released. */
const RELEASE = `
if redis.call('HGET', KEYS[1], 'owner') == ARGV[2] then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return 1
end
return 0
`;

/**
 * Compare-and-set of one breaker. KEYS[1]: breakers hash; KEYS[2]: generations hash.
 * ARGV: provider, expected generation, new JSON (already carrying expected + 1).
 * Returns 1 when written, 0 when the generation moved.
 */
const BREAKER_CAS = `
local current = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if current ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], current + 1)
return 1
`;

/**
 * Imports many dispatches whose seq is known (bulk load and `baton import`), overwriting any with
 * the same id. KEYS[1]: seq counter; KEYS[2]: all-dispatches zset; KEYS[3..6]: the zsets of
 * running, completed, failed, interrupted; then per dispatch its hash and its task's zset and
 * JSON hash; then, for each dispatch the caller saw under another task, that task's zset and JSON
 * hash. ARGV per dispatch: JSON without seq, seq, taskId, status, id, the previous taskId the
 * caller saw ('' for none), and where in KEYS that task's zset is (0 for none).
 * A dispatch moved to another task leaves its old task's indexes. Moves the counter past the
 * highest seq. Returns how many it wrote.
 */
const PUT_DISPATCHES = `
local statusKey = {running = 3, completed = 4, failed = 5, interrupted = 6}
local n = #ARGV / 7
local maxSeq = 0
for i = 0, n - 1 do
  local a = i * 7
  local b = 7 + 3 * i
  local json, seq, taskId, status, id = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ARGV[a + 5]
  local previous = redis.call('HGET', KEYS[b], 'taskId')
  local old = tonumber(ARGV[a + 7])
  if previous and old > 0 and previous ~= taskId and previous == ARGV[a + 6] then
    redis.call('ZREM', KEYS[old], id)
    redis.call('HDEL', KEYS[old + 1], id)
  end
  redis.call('HSET', KEYS[b], 'v', json, 'seq', seq, 'taskId', taskId, 'status', status)
  redis.call('HSET', KEYS[b + 2], id, json)
  redis.call('ZADD', KEYS[2], seq, id)
  redis.call('ZADD', KEYS[b + 1], seq, id)
  local statusIndex = statusKey[status]
  redis.call('ZADD', KEYS[statusIndex], seq, id)
  if previous then
    for _, k in pairs(statusKey) do
      if k ~= statusIndex then redis.call('ZREM', KEYS[k], id) end
    end
  end
  if tonumber(seq) > maxSeq then maxSeq = tonumber(seq) end
end
if maxSeq > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], maxSeq) end
return n
`;

/**
 * Reads the same fields of many hashes in one command (cheaper than a pipeline of HMGETs).
 * KEYS: the hashes; ARGV: the fields. Returns the values flat, hash by hash (nil where missing).
 */
const READ_HASHES = `
local out = {}
for i = 1, #KEYS do
  local values = redis.call('HMGET', KEYS[i], unpack(ARGV))
  for j = 1, #ARGV do out[#out + 1] = values[j] end
end
return out
`;

/**
 * One field of many hashes, reporting only the hashes that have it (most have not, on import).
 * KEYS: the hashes; ARGV[1]: the field. Returns index (1-based), value, for each hash that has it.
 */
const READ_PRESENT = `
local out = {}
for i = 1, #KEYS do
  local value = redis.call('HGET', KEYS[i], ARGV[1])
  if value then
    out[#out + 1] = i
    out[#out + 1] = value
  end
end
return out
`;

type Arg = string | number;

/** The custom commands registered on a connection (and usable in its pipelines), by name. */
const SCRIPTS = {
  batonWrite: WRITE,
  batonAppend: APPEND,
  batonAppendNextAttempt: APPEND_NEXT_ATTEMPT,
  batonLastDispatches: LAST_DISPATCHES,
  batonClaim: CLAIM,
  batonRelease: RELEASE,
  batonBreakerCas: BREAKER_CAS,
  batonPutDispatches: PUT_DISPATCHES,
  batonReadHashes: READ_HASHES,
  batonReadPresent: READ_PRESENT,
};

type LedgerScripts<R> = Record<keyof typeof SCRIPTS, (numKeys: number, ...keysAndArgs: Arg[]) => R>;
export type ScriptedRedis = Redis & LedgerScripts<Promise<unknown>>;
export type ScriptedPipeline = ChainableCommander & LedgerScripts<ChainableCommander>;

/** Registers the ledger's Lua scripts (EVALSHA, loaded on first use). */
export function defineLedgerScripts(redis: Redis): ScriptedRedis {
  for (const [name, lua] of Object.entries(SCRIPTS)) redis.defineCommand(name, { lua });
  return redis as ScriptedRedis;
}

/** One index change applied by the write script: a zset entry, or a field of another hash. */
export type IndexOp =
  { key: string; op: 'zadd' | 'zrem'; score: number; member: string } | { key: string; op: 'hset'; field: string; value: string };

export type WriteMode = 'create' | 'cas' | 'put';

/** Flattens a write into the script's KEYS and ARGV. */
export function writeArgs(
  hashKey: string,
  mode: WriteMode,
  expected: string,
  fields: Record<string, string | number>,
  ops: readonly IndexOp[],
): [number, ...Arg[]] {
  const pairs = Object.entries(fields).flat();
  const opArgs = ops.flatMap((o) => (o.op === 'hset' ? [o.op, o.field, o.value] : [o.op, o.score, o.member]));
  return [1 + ops.length, hashKey, ...ops.map((o) => o.key), mode, expected, pairs.length / 2, ...pairs, ...opArgs];
}
