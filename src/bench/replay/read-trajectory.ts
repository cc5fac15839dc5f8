import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../../errors/index.js';
import { isOpenHandsInstances, readOpenHandsEvents, readOpenHandsInstances } from './read-openhands-events.js';
import { readSweAgentTrajectory } from './read-swe-agent-trajectory.js';
import type { Trajectory } from './types.js';
import { describeJsonError } from '../../util/index.js';

/**
 * Reads every trajectory in a file: one for a `.traj` or an event stream, one per instance for
 * OpenHands evaluation output (`output.jsonl` lines with a `history`).
 */
export async function readTrajectories(file: string): Promise<Trajectory[]> {
  if (file.endsWith('.jsonl')) {
    const text = await readText(file);
    if (isOpenHandsInstances(text)) return readOpenHandsInstances(text, path.basename(file));
    return [readOpenHandsEvents(text, path.basename(file))];
  }
  return [await readTrajectory(file)];
}

/**
 * Reads a trajectory file: SWE-agent `.traj`/`.json` with `history` or `trajectory`, or an
 * OpenHands event stream (`.jsonl`, or a JSON array of events).
 *
 * @throws BatonError('NOT_FOUND') for a missing file, BatonError('INPUT_INVALID') for bad JSON.
 */
export async function readTrajectory(file: string): Promise<Trajectory> {
  const id = path.basename(file);
  const text = await readText(file);
  if (file.endsWith('.jsonl')) return readOpenHandsEvents(text, id);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new BatonError('INPUT_INVALID', `${file}: not valid JSON (${describeJsonError(text, cause)})`, { details: { file } });
  }
  if (Array.isArray(json)) return readOpenHandsEvents(text, id);
  return readSweAgentTrajectory(json, id);
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw new BatonError('NOT_FOUND', `trajectory file not found: ${file}`, { cause, details: { file } });
  }
}
