/**
 * Tool schemas as every MCP client can read them. The shared conversion
 * (`src/core/json-schema.ts`) writes a nullable value as a type array (`["number",
 * "null"]`), right for OpenAPI 3.1; single-`type` dialects (Gemini's function
 * declarations, some OpenAPI 3.0 tooling) reject or drop it, and the MCP inspector's
 * portability check flags it. `anyOf` says the same thing in a form they all take.
 */

type Json = Record<string, unknown>;

/** Keywords that describe the value as a whole, kept beside `anyOf` rather than in a branch. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated"]);

/** Subschemas under a keyword that holds one schema. */
const ONE = ["items", "additionalProperties", "not", "contains", "propertyNames"];
/** Subschemas under a keyword that holds a list of them. */
const MANY = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Subschemas under a keyword that maps names to them. */
const NAMED = ["properties", "patternProperties", "$defs", "definitions"];

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `schema` with every type array written as `anyOf` (one branch per type, each with the
 * type's own keywords), recursively. A new object; `schema` is left as it is.
 *
 * @example
 * portableSchema({ type: ["number", "null"], description: "d" });
 * // { anyOf: [{ type: "number" }, { type: "null" }], description: "d" }
 */
export function portableSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.includes(key) && isObject(value)) out[key] = portableSchema(value);
    else if (MANY.includes(key) && Array.isArray(value)) {
      out[key] = value.map((item) => (isObject(item) ? portableSchema(item) : item));
    } else if (NAMED.includes(key) && isObject(value)) {
      const named: Json = {};
      for (const [name, item] of Object.entries(value)) {
        named[name] = isObject(item) ? portableSchema(item) : item;
      }
      out[key] = named;
    } else out[key] = value;
  }
  const types = out.type;
  if (!Array.isArray(types)) return out;
  if (types.length === 1) return { ...out, type: types[0] };
  const annotations: Json = {};
  const constraints: Json = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === "type") continue;
    if (ANNOTATIONS.has(key)) annotations[key] = value;
    else constraints[key] = value;
  }
  // `null` takes no constraint; every other type keeps those of the schema (JSON Schema
  // applies a keyword only to values of its own type, so each branch means what it did).
  const anyOf = types.map((type) => (type === "null" ? { type } : { type, ...constraints }));
  return { anyOf, ...annotations };
}
