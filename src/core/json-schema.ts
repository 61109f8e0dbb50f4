/** The JSON Schema of the registry's zod schemas, the one conversion every surface shares. */
import { z } from "zod";

export type JsonObject = Record<string, unknown>;

/**
 * Each schema's conversions, made once: OpenAPI and MCP state the same input and output
 * schemas, and at a few hundred operations converting each twice was ~0.2 s of the start.
 */
const converted = {
  input: new WeakMap<z.ZodType, JsonObject>(),
  output: new WeakMap<z.ZodType, JsonObject>(),
};

/**
 * The JSON Schema of a zod schema as either side sees it: the one conversion every
 * surface that states a schema uses (OpenAPI here, MCP tools). Made once per schema and
 * shared by every caller: never change what it answers.
 *
 * @example
 * jsonSchema(sum.input, "input").properties.numbers.maxItems; // 10000
 */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const known = converted[io].get(schema);
  if (known !== undefined) return known;
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
  }) as JsonObject;
  converted[io].set(schema, rest);
  return rest;
}

/** What a surface adds to the OpenAPI document besides the operations' own paths. */
export interface OpenApiFragment {
  paths: Record<string, JsonObject>;
  tags?: JsonObject[];
  securitySchemes?: Record<string, JsonObject>;
  schemas?: Record<string, JsonObject>;
  responses?: Record<string, JsonObject>;
}
