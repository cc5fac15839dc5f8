/** A rule that stops a supervised process stuck retrying: `count` stdout lines in a row match `pattern`. */
export interface StallLine {
  /** A RegExp source. */
  pattern: string;
  count: number;
}

export interface StallWatcher {
  push(chunk: Buffer): void;
  /** The last line that matched when the rule fired. */
  stalled?: string;
}

/**
 * Counts stdout lines matching the stall rule in a row (other non-empty lines reset the count);
 * calls `stop` once when they reach its count.
 */
export function stallWatcher(rule: StallLine | undefined, stop: () => void): StallWatcher {
  const watcher: StallWatcher = { push: () => undefined };
  if (rule === undefined) return watcher;
  const pattern = new RegExp(rule.pattern);
  let partial = '';
  let streak = 0;
  watcher.push = (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (watcher.stalled !== undefined || line.trim() === '') continue;
      streak = pattern.test(line) ? streak + 1 : 0;
      if (streak < rule.count) continue;
      watcher.stalled = line;
      stop();
    }
  };
  return watcher;
}
