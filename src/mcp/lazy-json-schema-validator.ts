import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

/**
 * The MCP SDK's JSON Schema validator (ajv with its formats), built the first time a schema is
 * validated. A Baton server validates JSON Schema only for elicitation replies, which it never
 * requests, yet the SDK's default builds ajv in every server: about 25 ms of a fresh `baton mcp`
 * start (bench cold). Passed as the SDK's public `jsonSchemaValidator` option.
 */
export class LazyAjvValidator implements jsonSchemaValidator {
  private validator: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.validator ??= new AjvJsonSchemaValidator();
    return this.validator.getValidator<T>(schema);
  }

  /** True once ajv has been built (for tests). */
  get loaded(): boolean {
    return this.validator !== undefined;
  }
}
