/** The JSON Schema of the registry's zod schemas, the one conversion every surface shares. */
import { z } from "zod";

export type JsonObject = Record<string, unknown>;

/**
 * The JSON Schema of a zod schema as either side sees it: the one conversion every
 * surface that states a schema uses (OpenAPI here, MCP tools).
 *
 * @example
 * jsonSchema(sum.input, "input").properties.numbers.maxItems; // 10000
 */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
  }) as JsonObject;
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
