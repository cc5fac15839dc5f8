import { BatonError } from '../../errors/index.js';
import { materializeBreaker } from '../defaults.js';
import type { Breaker, BreakerWrite, Claim, ClaimResult } from '../types.js';
import { type RedisContext, readHashes } from './redis-context.js';
import { parseStored } from './redis-schemas.js';

/** The claim script decides atomically on the server; the lease lapses through PEXPIRE. */
export async function claimTask(ctx: RedisContext, taskId: string, owner: string, leaseMs: number): Promise<ClaimResult> {
  if (!Number.isFinite(leaseMs)) {
    throw new BatonError('INPUT_INVALID', `Invalid lease ${leaseMs} ms for task "${taskId}": use a finite number`, {
      details: { field: 'leaseMs', value: leaseMs },
    });
  }
  const lease = Math.max(0, Math.ceil(leaseMs));
  const leaseUntil = ctx.now() + lease;
  const reply = (await ctx.redis.batonClaim(2, ctx.keys.claim(taskId), ctx.keys.claims, taskId, owner, lease, leaseUntil)) as [
    number,
    string?,
    string?,
  ];
  if (reply[0] === 1) return { ok: true, claim: { taskId, owner, leaseUntil } };
  return { ok: false, holder: { taskId, owner: String(reply[1]), leaseUntil: Number(reply[2]) } };
}

export async function releaseTask(ctx: RedisContext, taskId: string, owner: string): Promise<boolean> {
  return (await ctx.redis.batonRelease(2, ctx.keys.claim(taskId), ctx.keys.claims, taskId, owner)) === 1;
}

/** Live claims of the given tasks (undefined where none is held or the lease lapsed). */
export async function loadClaims(ctx: RedisContext, taskIds: readonly string[]): Promise<(Claim | undefined)[]> {
  const rows = await readHashes(
    ctx,
    taskIds.map((id) => ctx.keys.claim(id)),
    ['owner', 'until'],
  );
  const now = ctx.now();
  return rows.map(([owner, until], i) => {
    const leaseUntil = Number(until);
    return typeof owner === 'string' && leaseUntil > now ? { taskId: taskIds[i] as string, owner, leaseUntil } : undefined;
  });
}

export async function getBreaker(ctx: RedisContext, provider: string): Promise<Breaker | undefined> {
  const raw = await ctx.redis.hget(ctx.keys.breakers, provider);
  return raw === null ? undefined : parseStored('breaker', `${ctx.keys.breakers} ${provider}`, raw);
}

export async function listBreakers(ctx: RedisContext): Promise<Breaker[]> {
  const all = await ctx.redis.hgetall(ctx.keys.breakers);
  return Object.keys(all)
    .sort()
    .map((provider) => parseStored('breaker', `${ctx.keys.breakers} ${provider}`, all[provider] as string));
}

export async function compareAndSetBreaker(
  ctx: RedisContext,
  provider: string,
  expectedGeneration: number,
  next: BreakerWrite,
): Promise<Breaker | undefined> {
  const breaker = materializeBreaker(provider, expectedGeneration + 1, next, ctx.now());
  const k = ctx.keys;
  const written = await ctx.redis.batonBreakerCas(
    2,
    k.breakers,
    k.breakerGenerations,
    provider,
    expectedGeneration,
    JSON.stringify(breaker),
  );
  return written === 1 ? breaker : undefined;
}
