import { describe, expect, it } from 'vitest';
import { LazyAjvValidator } from '../../src/mcp/lazy-json-schema-validator.js';

describe('LazyAjvValidator (the MCP server’s JSON Schema validator)', () => {
  it('loads ajv on first use only, then validates as the SDK’s ajv validator does', () => {
    const validator = new LazyAjvValidator();
    expect(validator.loaded).toBe(false);
    const check = validator.getValidator<{ name: string }>({
      type: 'object',
      properties: { name: { type: 'string', minLength: 2 }, email: { type: 'string', format: 'email' } },
      required: ['name'],
    });
    expect(validator.loaded).toBe(true);
    expect(check({ name: 'Ada' })).toMatchObject({ valid: true, data: { name: 'Ada' } });
    const wrong = check({ name: 'A', email: 'not-an-address' });
    expect(wrong.valid).toBe(false);
    expect(wrong.errorMessage).toMatch(/name|email/);
    expect(check({}).valid).toBe(false);
  });
});
