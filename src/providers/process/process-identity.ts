import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { AgentProcess } from '../../ledger/index.js';

/** Fields of /proc/<pid>/stat, or undefined where there is no /proc or the process is gone. */
function readStat(pid: number | string): { state: string; pgrp: number; startTime: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2 (comm) is in parentheses and may hold spaces or ')': count fields from the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), rest[2] field 5 (pgrp), rest[19] field 22 (starttime).
  return { state: rest[0] ?? '', pgrp: Number(rest[2]), startTime: rest[19] ?? '' };
}

/**
 * Who a just-spawned agent process is: pid (= its process group id), start time and host. The
 * start time is in clock ticks since boot (Linux /proc/<pid>/stat field 22), or '' where there is
 * no /proc or the process is gone. A pid is reused after its process dies; the pair (pid, start
 * time) is not, so it is what a later run checks before signalling a group.
 */
export function identifyProcess(pid: number): AgentProcess {
  return { pid, startTime: readStat(pid)?.startTime ?? '', host: hostname() };
}

/**
 * The live (not zombie) members of the recorded agent's process group, when that group is still
 * the recorded one: same host, and either its leader is the recorded process (same pid and start
 * time) or the leader is gone and every member started after it (its children, left running).
 * Empty otherwise, including where there is no /proc or no start time was recorded: a bare pid
 * is not proof enough to signal a group.
 */
export function liveGroupMembers(recorded: AgentProcess): number[] {
  if (recorded.host !== hostname() || recorded.startTime === '') return [];
  const leader = readStat(recorded.pid);
  if (leader !== undefined && leader.state !== 'Z' && leader.startTime !== recorded.startTime) return [];
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat === undefined || stat.pgrp !== recorded.pid || stat.state === 'Z') continue;
    // A member older than the recorded leader belongs to some other group that reused the id.
    if (BigInt(stat.startTime || '0') < BigInt(recorded.startTime)) return [];
    members.push(Number(entry));
  }
  return members;
}
