import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/index.js';
import { BATON_SAMPLES, PRESET_SAMPLES } from '../redact/preset-samples.js';

describe('createLogger', () => {
  it('masks every secret in every line it writes, in messages and fields alike', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-log-'));
    const file = path.join(dir, 'log.jsonl');
    const fd = fs.openSync(file, 'w');
    const awsKey = PRESET_SAMPLES.find((s) => s.name === 'AWS_SECRET_ACCESS_KEY')?.secret ?? '';
    const awsId = BATON_SAMPLES.find((s) => s.name === 'AWS_ACCESS_KEY_ID')?.secret ?? '';
    const github = PRESET_SAMPLES.find((s) => s.name === 'GITHUB_TOKEN')?.secret ?? '';
    try {
      const logger = createLogger({ level: 'info', destination: fd });
      logger.warn(
        { command: `AWS_ACCESS_KEY_ID=${awsId} AWS_SECRET_ACCESS_KEY=${awsKey} aws s3 ls`, url: `https://x:${github}@github.com/a/b` },
        `push failed with ${github}`,
      );
      const line = fs.readFileSync(file, 'utf8');
      for (const secret of [awsKey, awsId, github]) expect(line).not.toContain(secret);
      const record = JSON.parse(line) as { msg: string; command: string; url: string };
      expect(record.command).toBe('AWS_ACCESS_KEY_ID=[REDACTED:aws] AWS_SECRET_ACCESS_KEY=[REDACTED:aws] aws s3 ls');
      expect(record.url).toBe('https://x:[REDACTED:github]@github.com/a/b');
      expect(record.msg).toBe('push failed with [REDACTED:github]');
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
