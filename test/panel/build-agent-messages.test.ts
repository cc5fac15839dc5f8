import { describe, expect, it } from 'vitest';
import { buildAgentMessages, type PriorAnswer, withDuplicatePrevention } from '../../src/panel/index.js';

const context: PriorAnswer[] = [
  { agent: 'technique', text: 'Rotate early.' },
  { agent: 'science', text: 'Train rotation power.', summarized: true },
];

describe('buildAgentMessages', () => {
  it('leaves the first agent as system prompt plus question', () => {
    expect(buildAgentMessages({ systemPrompt: 'You coach technique.', question: 'Q?', context: [] })).toEqual({
      system: 'You coach technique.',
      messages: [{ role: 'user', content: 'Q?' }],
    });
  });

  it('puts earlier answers as assistant messages in order before the question', () => {
    const built = buildAgentMessages({ systemPrompt: 'You coach tactics.', question: 'Q?', context });
    expect(built.messages).toMatchInlineSnapshot(`
      [
        {
          "content": "Rotate early.",
          "role": "assistant",
        },
        {
          "content": "[Summary of science's answer]
      Train rotation power.",
          "role": "assistant",
        },
        {
          "content": "Q?",
          "role": "user",
        },
      ]
    `);
    expect(built.system).toBe(withDuplicatePrevention('You coach tactics.', ['technique', 'science']));
  });

  it('attributes earlier answers in user messages with attribution "user"', () => {
    const built = buildAgentMessages({ systemPrompt: 'S', question: 'Q?', context, attribution: 'user' });
    expect(built.messages).toEqual([
      { role: 'user', content: 'For context, technique said: Rotate early.' },
      { role: 'user', content: "For context, science said (summary of science's answer): Train rotation power." },
      { role: 'user', content: 'Q?' },
    ]);
  });

  it('does not modify its inputs', () => {
    const frozen = Object.freeze(context.map((answer) => Object.freeze({ ...answer })));
    expect(() => buildAgentMessages({ systemPrompt: 'S', question: 'Q', context: frozen })).not.toThrow();
  });
});

describe('withDuplicatePrevention', () => {
  it('keeps the prompt unchanged when no earlier agent answered', () => {
    expect(withDuplicatePrevention('Prompt.', [])).toBe('Prompt.');
  });

  it('names the earlier agents and asks not to repeat, to focus, to complement and to acknowledge', () => {
    const text = withDuplicatePrevention('Prompt.', ['technique', 'science']);
    expect(text.startsWith('Prompt.\n')).toBe(true);
    expect(text).toContain('(technique, science)');
    for (const phrase of ['Do not repeat', 'own area of expertise', 'Complement', 'acknowledge what was already covered']) {
      expect(text).toContain(phrase);
    }
  });
});
