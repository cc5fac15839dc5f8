function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const WORDS = ['auth', 'routes', 'endpoint', 'registered', 'coverage', 'missing', 'test', 'returns', '404', 'config', 'splash', 'navigation', 'tab', 'schema', 'migration', 'price', 'format', 'null', 'pagination', 'expected'];
const DIRS = ['src', 'app', 'lib', 'test', 'src/routes', 'src/auth', 'app/components', 'app/navigation/screens/settings'];
const PROVIDERS = ['gemini', 'copilot', 'cursor', 'codex', 'claude'];
const OUTCOMES = ['rate_limited', 'quota_exhausted', 'timeout', 'overloaded', 'ok', 'validation_failed'] as const;
function generateHistory(taskId: string, random: () => number): History {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const sentence = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(' ');
  const file = () => `${pick(DIRS)}/${pick(WORDS)}-${Math.floor(random() * 100)}.ts`;
  const attempts = 1 + Math.floor(random() * 4);
  const out: History = [];
  let seq = 0;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const tries = 1 + Math.floor(random() * 3);
    for (let t = 0; t < tries; t++) {
      seq += 1;
      const errors = random() < 0.7 ? Array.from({ length: Math.floor(random() * 5) }, () => sentence(2 + Math.floor(random() * (random() < 0.1 ? 200 : 14)))) : [];
      if (random() < 0.02) errors.push(`token leaked: ghp_${'x'.repeat(36)}`);
      out.push({
        id: `${taskId}-${seq}`,
        seq,
        taskId,
        attempt,
        provider: pick(PROVIDERS),
        status: 'failed',
        outcome: pick(OUTCOMES),
        filesCreated: Array.from({ length: Math.floor(random() * 6) }, file),
        filesUpdated: Array.from({ length: Math.floor(random() * 6) }, file),
        filesDeleted: [],
        validationErrors: errors,
        startedAt: 1_700_000_000_000 + seq,
      });
    }
  }
  return out.reverse();
}
