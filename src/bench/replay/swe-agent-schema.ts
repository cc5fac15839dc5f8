import * as z from 'zod';

const toolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.unknown() }).nullish(),
});

const message = z.looseObject({
  role: z.string().nullish(),
  content: z.unknown(),
  is_demo: z.boolean().nullish(),
  action: z.string().nullish(),
  tool_calls: z.array(toolCall).nullish(),
  tool_call_ids: z.array(z.string()).nullish(),
  message_type: z.string().nullish(),
});

const step = z.looseObject({
  action: z.string().nullish(),
  observation: z.string().nullish(),
  response: z.string().nullish(),
  state: z.unknown(),
});

/**
 * The parts of a SWE-agent `.traj` a replay reads; everything else passes through untouched.
 * Lenient on purpose (null or missing fields are fine) so both schema generations parse.
 */
export const sweAgentTrajectorySchema = z.looseObject({
  history: z.array(message).nullish(),
  trajectory: z.array(step).nullish(),
  info: z.looseObject({ submission: z.string().nullish() }).nullish(),
});

export type HistoryMessage = z.infer<typeof message>;
export type TrajectoryStep = z.infer<typeof step>;
