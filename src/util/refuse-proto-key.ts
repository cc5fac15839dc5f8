import { BatonError } from '../errors/index.js';

/**
 * Refuses a map from outside (parsed JSON) that holds a `__proto__` key of its own: a JavaScript
 * object cannot keep it as an ordinary key (zod's record drops it, an assignment makes it the
 * prototype), so the entry would vanish without a word. Anything else passes.
 * @throws BatonError CONFIG_INVALID naming `field` (`providers.__proto__`)
 */
export function refuseProtoKey(map: unknown, field: string, what: string, details: Record<string, unknown> = {}): void {
  if (typeof map !== 'object' || map === null || !Object.hasOwn(map, '__proto__')) return;
  throw new BatonError('CONFIG_INVALID', `${what}: ${field}.__proto__: a name may not be "__proto__"`, {
    details: { ...details, field: `${field}.__proto__` },
  });
}
