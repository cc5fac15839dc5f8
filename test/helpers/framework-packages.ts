/**
 * The framework packages consumer projects install beside Baton (the docs' blocks and examples/,
 * the framework loops of test/loop/consumer-loops.test.ts), at the versions this repository tests
 * with (its lockfile): one consumer project, installed once, serves them all.
 */
export const FRAMEWORK_PACKAGES: readonly string[] = [
  'ai@6.0.326',
  '@ai-sdk/openai-compatible@2.0.91',
  'zod@4.6.7',
  'langchain@1.5.14',
  '@langchain/core@1.4.0',
  '@langchain/openai@1.5.8',
  '@openai/agents@0.14.3',
  'openai@6.49.0',
];
