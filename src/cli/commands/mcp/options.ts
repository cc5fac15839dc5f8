import type { CommonOptions } from '../../context.js';

export interface McpCliOptions extends CommonOptions {
  http?: boolean;
  port?: string;
  host?: string;
  token?: string;
  workspace?: string;
  allowedHost?: string[];
  allowUnauthenticated?: boolean;
  maxSessions?: string;
  maxInFlight?: string;
  sessionIdleMs?: string;
}
