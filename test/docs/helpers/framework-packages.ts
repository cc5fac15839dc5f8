/**
 * The framework packages the docs' blocks and examples/ import, at the versions this repository
 * tests with (its lockfile), as test/loop/consumer-loops.test.ts installs them: one consumer
 * project, installed once, serves both.
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
