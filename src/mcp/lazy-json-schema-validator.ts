import { createRequire } from 'node:module';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

/**
 * The MCP SDK's JSON Schema validator (ajv with its formats), loaded the first time a schema is
 * validated. A Baton server validates JSON Schema only for elicitation replies, which it never
 * requests, yet the SDK's default builds ajv in every server: about 25 ms of a fresh `baton mcp`
 * start (bench cold). ajv is CommonJS, so `require` loads it synchronously, as the SDK's own
 * interface needs.
 */
export class LazyAjvValidator implements jsonSchemaValidator {
  private validator: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.validator ??= loadAjvValidator();
    return this.validator.getValidator<T>(schema);
  }

  /** True once ajv has been loaded (for tests). */
  get loaded(): boolean {
    return this.validator !== undefined;
  }
}

function loadAjvValidator(): AjvJsonSchemaValidator {
  const sdk = createRequire(import.meta.url)('@modelcontextprotocol/sdk/validation/ajv') as {
    AjvJsonSchemaValidator: new () => AjvJsonSchemaValidator;
  };
  return new sdk.AjvJsonSchemaValidator();
}

/** The name the SDK's server imports: the bundled command puts this class in the SDK's place. */
export { LazyAjvValidator as AjvJsonSchemaValidator };
