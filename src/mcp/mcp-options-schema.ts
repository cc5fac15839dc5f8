import * as z from 'zod';
import { functionOption, objectWithMethods, parseInput } from '../util/index.js';
import { FORWARDING_OVERRIDES } from './client-forwarding.js';

/**
 * The MCP server starters' options (createBatonMcpServer, serveStdio, serveHttp), checked before
 * anything listens: strict, so `{ workspaceDir }` or `{ hostname }` is an error naming the
 * spelling expected. Built once at module load; zod is loaded by the MCP SDK already.
 */
const serverShape = {
  registry: objectWithMethods(['ledger'], 'a WorkspaceRegistry').optional(),
  workspace: z.string().min(1).optional(),
  sessionId: functionOption<() => string>('a function returning the session id').optional(),
  watchIntervalMs: z.number().int().min(1).optional(),
  version: z.string().min(1).optional(),
  forwards: z.enum(FORWARDING_OVERRIDES).optional(),
};

export const serverSchema = z.strictObject(serverShape);

export const httpSchema = z.strictObject({
  ...serverShape,
  port: z.number().int().min(0).max(65_535),
  host: z.string().min(1).optional(),
  token: z.string().min(1).optional(),
  allowedHosts: z.array(z.string().min(1)).optional(),
  allowedOrigins: z.array(z.string().min(1)).optional(),
  allowUnauthenticated: z.boolean().optional(),
  maxSessions: z.number().int().min(1).optional(),
  maxInFlight: z.number().int().min(1).optional(),
  sessionIdleMs: z.number().int().min(1).optional(),
});

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkMcpServerOptions(options: unknown, who: string): void {
  parseInput(serverSchema, options, { what: `${who} options` });
}

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkServeHttpOptions(options: unknown): void {
  parseInput(httpSchema, options, { what: 'serveHttp options' });
}
