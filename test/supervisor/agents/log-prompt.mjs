// Shared by the test agents: reads the prompt from stdin and appends it to $AGENT_LOG (JSONL).
import { appendFileSync, readFileSync } from 'node:fs';

export function readPrompt(agent) {
  const prompt = readFileSync(0, 'utf8');
  const fromFile = process.env.BATON_PROMPT_FILE ? readFileSync(process.env.BATON_PROMPT_FILE, 'utf8') : '';
  if (process.env.AGENT_LOG) {
    const entry = {
      agent,
      attempt: Number(process.env.BATON_ATTEMPT),
      task: process.env.BATON_TASK_ID,
      prompt,
      samePromptFile: fromFile === prompt,
    };
    appendFileSync(process.env.AGENT_LOG, `${JSON.stringify(entry)}\n`);
  }
  return prompt;
}
