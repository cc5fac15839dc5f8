import { CLIENT_LIMITS, type ClientLimits } from '../clients/index.js';
import { BatonError } from '../errors/index.js';

/** The values `BATON_MCP_FORWARDS` accepts (what a user can say about a client Baton does not know). */
export const FORWARDING_OVERRIDES = ['structured', 'text', 'both'] as const;
export type ForwardingOverride = (typeof FORWARDING_OVERRIDES)[number];

/** How a client handles tool results, as far as the size of what reaches its model goes. */
export type ClientProfile = Pick<ClientLimits, 'forwards' | 'wrapperTokens' | 'resources' | 'maxResultBytes'>;

/** The clients Baton was measured in (clients/CLIENT_LIMITS), by the `clientInfo.name` they send in `initialize`. */
export const KNOWN_CLIENTS: Readonly<Record<string, ClientProfile>> = Object.fromEntries(
  Object.values(CLIENT_LIMITS).map((limits: ClientLimits) => [
    limits.mcpName,
    { forwards: limits.forwards, wrapperTokens: limits.wrapperTokens, resources: limits.resources, maxResultBytes: limits.maxResultBytes },
  ]),
);

/** @default 32: tokens kept free for the wrapper of a client Baton does not know. */
export const UNKNOWN_CLIENT_WRAPPER_TOKENS = 32;

/**
 * The profile to size results for: the known client's, else the worst case (both forms
 * forwarded, a wrapper around them). An override (`BATON_MCP_FORWARDS`) replaces what the client
 * forwards, keeping a known client's wrapper.
 */
export function clientProfile(clientName: string | undefined, override?: ForwardingOverride): ClientProfile {
  // Own keys only: a client named `constructor` or `toString` must not find Object's members.
  const known = clientName !== undefined && Object.hasOwn(KNOWN_CLIENTS, clientName) ? KNOWN_CLIENTS[clientName] : undefined;
  const wrapperTokens = known?.wrapperTokens ?? UNKNOWN_CLIENT_WRAPPER_TOKENS;
  const resources = known?.resources ?? 'json';
  if (override) return { ...known, forwards: override, wrapperTokens, resources };
  return known ?? { forwards: 'both', wrapperTokens, resources };
}

/**
 * The token budget one copy of a result may take so that what the client hands its model stays
 * within `cap`: the cap less the client's wrapper, halved when the client forwards both forms.
 * Undefined when the format's own cap applies unchanged.
 */
export function resultBudget(cap: number, profile: ClientProfile): number | undefined {
  const copies = profile.forwards === 'both' ? 2 : 1;
  if (copies === 1 && profile.wrapperTokens === 0) return undefined;
  return Math.floor((cap - profile.wrapperTokens) / copies);
}

/**
 * The text block to send beside `structuredContent`: for every client that may forward both
 * forms, exactly `JSON.stringify(structured)`, which a deduplicating client (Copilot CLI) sends
 * once; a client that forwards only one form gets `text` (the narrative's markdown) when given.
 */
export function textBlockFor(profile: ClientProfile, structured: Record<string, unknown>, text?: string): string {
  return text !== undefined && profile.forwards !== 'both-deduplicated' ? text : JSON.stringify(structured);
}

/** Reads `BATON_MCP_FORWARDS`; undefined when unset. Throws INPUT_INVALID naming the variable. */
export function parseForwardingOverride(value: string | undefined): ForwardingOverride | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const given = value.trim();
  if ((FORWARDING_OVERRIDES as readonly string[]).includes(given)) return given as ForwardingOverride;
  throw new BatonError('INPUT_INVALID', `BATON_MCP_FORWARDS must be one of ${FORWARDING_OVERRIDES.join(', ')}; got "${value}"`, {
    details: { field: 'BATON_MCP_FORWARDS', value },
  });
}
