import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { BatonError } from '../errors/index.js';
import { safeValue, toSnakeCase } from '../util/index.js';
import { guarded } from './tool-result.js';

export interface CheckedToolConfig<Shape extends z.ZodRawShape> {
  title: string;
  description: string;
  inputSchema: Shape;
  outputSchema: z.ZodRawShape | z.ZodObject;
  annotations: ToolAnnotations;
}

/**
 * Registers a tool whose input Baton validates itself, so a bad argument comes back as Baton's
 * readable error (code, field, value, next step) instead of the SDK's dump of zod issues.
 *
 * The SDK validates input against the schema it is given before the handler runs, and builds the
 * error text itself. So the SDK gets a schema that accepts any value for each field but carries
 * (through zod's `.meta`) the exact JSON Schema of the strict field: `tools/list` advertises the
 * strict contract, and the strict parse happens here, in the handler.
 */
export function registerCheckedTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  name: string,
  config: CheckedToolConfig<Shape>,
  handler: (input: z.output<z.ZodObject<Shape>>) => Promise<CallToolResult>,
): void {
  const { strict, advertised } = schemasFor(config.inputSchema);
  server.registerTool(name, { ...config, inputSchema: advertised }, (args: unknown) =>
    guarded(async () => {
      const parsed = strict.safeParse(args ?? {});
      if (!parsed.success) throw inputError(name, args, parsed.error);
      return handler(parsed.data as z.output<z.ZodObject<Shape>>);
    }),
  );
}

// Every session of `baton mcp --http` registers the same tools with the same (module-level) input
// shapes; converting them to JSON Schema took tens of ms of the shared event loop per initialize.
// Built once per shape, per process.
const built = new WeakMap<z.ZodRawShape, { strict: z.ZodObject; advertised: z.ZodObject }>();
let builds = 0;

/** How many input shapes were converted in this process (a test checks sessions reuse them). */
export function checkedSchemaBuilds(): number {
  return builds;
}

function schemasFor(shape: z.ZodRawShape) {
  let schemas = built.get(shape);
  if (!schemas) {
    builds += 1;
    // Strict: an unknown argument (a camelCase `taskId` for `task_id`, a typo) is an error naming it,
    // never silently dropped.
    schemas = { strict: z.strictObject(shape), advertised: advertisedShape(shape) };
    built.set(shape, schemas);
  }
  return schemas;
}

/** The schema handed to the SDK: every field accepts anything; its JSON Schema is the strict one. */
function advertisedShape(shape: z.ZodRawShape): z.ZodObject {
  const lenient: Record<string, z.ZodType> = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const { $schema: _drop, ...json } = z.toJSONSchema(field as z.ZodType, {
      io: 'input',
      target: 'draft-7',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    lenient[key] = z.unknown().optional().meta(json);
    if (!(field as z.ZodType).safeParse(undefined).success) required.push(key);
  }
  // Loose at run time, so an unknown argument reaches the strict parse (which names it) instead of
  // being stripped by the SDK; advertised as closed, which is what the strict parse enforces.
  return z.looseObject(lenient).meta({ additionalProperties: false, ...(required.length > 0 ? { required } : {}) });
}

function inputError(tool: string, args: unknown, error: z.ZodError): BatonError {
  const problems = error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`);
  const first = error.issues[0];
  if (first?.code === 'unrecognized_keys' && first.path.length === 0) {
    const [key = ''] = first.keys;
    // Arguments are snake_case: a camelCase name gets the spelling the tool accepts.
    const snake = toSnakeCase(key);
    const hint = snake === key ? '' : ` (arguments are snake_case: did you mean "${snake}"?)`;
    return new BatonError('INPUT_INVALID', `Invalid arguments for ${tool}: unknown field "${key}"${hint}`, {
      details: { field: key },
    });
  }
  const field = first && first.path.length > 0 ? first.path.join('.') : undefined;
  const value =
    field !== undefined && args && typeof args === 'object' ? (args as Record<string, unknown>)[String(first?.path[0])] : undefined;
  return new BatonError('INPUT_INVALID', `Invalid arguments for ${tool}: ${problems.join('; ')}`, {
    details: field !== undefined ? { field, ...(value !== undefined ? { value: safeValue(value, [String(first?.path[0])]) } : {}) } : {},
  });
}
