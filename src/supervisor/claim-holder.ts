import { hostname } from 'node:os';

/**
 * Whether the run named by a claim's owner (`<host>:<pid>:<random>`, as runPlan names itself) is
 * still running: 'gone' when it ran on this host and its pid no longer exists (a crashed run
 * whose lease has not lapsed yet), 'live' when that pid exists, 'unknown' for another host or
 * an owner named some other way (a live lease is then the best evidence: it is being renewed).
 */
export function claimHolderState(owner: string): 'live' | 'gone' | 'unknown' {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return 'unknown';
  try {
    process.kill(Number(pid), 0);
    return 'live';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'live' : 'gone';
  }
}
