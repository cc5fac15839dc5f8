import * as z from 'zod';
import { stringMapOption } from '../util/index.js';

/** The edge schema of a panel file (JSON). Inside the module only the plain types are used. */

const apiKeySchema = z
  .union([z.string().min(1), z.object({ env: z.string().min(1).describe('environment variable holding the key') }).strict()])
  .describe('API key, or {"env":"VAR"} to read it from the environment');

const httpFields = {
  model: z.string({ error: 'must name a model' }).trim().min(1, 'must name a model'),
  apiKey: apiKeySchema.optional(),
  headers: stringMapOption('the HTTP headers: an object of strings').optional(),
};

const openAiCompatibleSchema = z
  .object({
    provider: z.literal('openai-compatible'),
    baseURL: z.url({ error: 'must be the API base URL (required for openai-compatible), e.g. http://127.0.0.1:8080/v1' }),
    ...httpFields,
  })
  .strict();
const anthropicSchema = z.object({ provider: z.literal('anthropic'), baseURL: z.url().optional(), ...httpFields }).strict();
const googleSchema = z.object({ provider: z.literal('google'), baseURL: z.url().optional(), ...httpFields }).strict();
const batonSchema = z
  .object({
    provider: z.literal('baton'),
    name: z.string({ error: 'must name a provider declared in baton.config.json (or a built-in agent CLI)' }).trim().min(1),
    model: z.string().trim().min(1).optional().describe('model to ask the Baton provider for'),
  })
  .strict();

const providerError = (providers: string) => (issue: { code: string }) =>
  issue.code === 'invalid_union' ? `must be one of: ${providers}` : undefined;

/** An HTTP model through AI SDK 6 (what summaries need). */
export const httpModelSpecSchema = z.discriminatedUnion('provider', [openAiCompatibleSchema, anthropicSchema, googleSchema], {
  error: providerError('openai-compatible, anthropic, google'),
});

/** An agent's model: an HTTP model, or a Baton provider (agent CLI, command, http) by name. */
export const modelSpecSchema = z.discriminatedUnion('provider', [openAiCompatibleSchema, anthropicSchema, googleSchema, batonSchema], {
  error: providerError('openai-compatible, anthropic, google, baton'),
});

const positiveInt = z.number().int().positive();

export const agentSchema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty'),
    prompt: z.string().min(1, 'must name a prompt file (relative to the panel file)'),
    model: modelSpecSchema,
    maxContextTokens: positiveInt.optional(),
    maxOutputTokens: positiveInt.optional(),
    timeoutMs: positiveInt.optional(),
    summaryModel: httpModelSpecSchema.optional(),
  })
  .strict();

export const panelFileSchema = z
  .object({
    $schema: z.string().optional(),
    attribution: z.enum(['assistant', 'user']).default('assistant'),
    maxContextTokens: positiveInt.optional(),
    maxOutputTokens: positiveInt.optional(),
    timeoutMs: positiveInt.optional(),
    summaryModel: httpModelSpecSchema.optional(),
    agents: z.array(agentSchema).min(1, 'must list at least one agent'),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.agents.forEach((agent, i) => {
      if (seen.has(agent.name))
        ctx.addIssue({ code: 'custom', path: ['agents', i, 'name'], message: `duplicate agent name "${agent.name}"` });
      seen.add(agent.name);
    });
  });

export type PanelFile = z.infer<typeof panelFileSchema>;
export type ModelSpecInput = z.infer<typeof modelSpecSchema>;
export type HttpModelSpecInput = z.infer<typeof httpModelSpecSchema>;
