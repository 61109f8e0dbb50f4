import type { JsonObject, OpenApiFragment } from "../core/json-schema.js";
import { jsonSchema } from "../core/json-schema.js";
import { pathOf } from "../core/path.js";
import type { AnyOperation } from "../kit/define.js";
import { describeParam } from "../kit/params.js";

const problemSchema = {
  type: "object",
  required: ["loc", "msg", "type"],
  properties: {
    loc: {
      type: "array",
      items: { type: "string" },
      description:
        'Where: the source ("query", or "body" for the admin API), the field, and for a list item its index.',
    },
    msg: { type: "string", description: "What is wrong, as a sentence." },
    type: { type: "string", description: "A Pydantic v2 error type, e.g. float_parsing." },
    ctx: {
      type: "object",
      description:
        "The constraint that was broken, under Pydantic's keys. Bounds are JSON numbers for " +
        "decimal and integer parameters alike.",
      properties: {
        ge: { type: "number", description: "The value must be greater than or equal to this." },
        gt: { type: "number", description: "The value must be greater than this." },
        le: { type: "number", description: "The value must be less than or equal to this." },
        lt: { type: "number", description: "The value must be less than this." },
        min_length: { type: "integer", description: "Fewest characters or list items." },
        max_length: { type: "integer", description: "Most characters or list items." },
        actual_length: { type: "integer", description: "How many list items were sent." },
        field_type: { type: "string", description: 'The kind of value counted, e.g. "List".' },
        expected: { type: "string", description: "The allowed values, quoted, for `enum`." },
      },
      additionalProperties: true,
    },
  },
  // No `input`: Pydantic echoes the offending value, this service does not (docs/api.md).
};

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

const errorResponse = (description: string, headers?: JsonObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    "application/json": { schema: { $ref: "#/components/schemas/ErrorMessage" } },
  },
});

function exampleKey(index: number): string {
  return `example${index + 1}`;
}

function parametersOf(operation: AnyOperation): JsonObject[] {
  return Object.entries(operation.input.shape).map(([name, schema]) => {
    const param = describeParam(schema);
    const examples: JsonObject = {};
    for (const [index, example] of operation.examples.entries()) {
      const value = (example.input as JsonObject)[name];
      if (value !== undefined) examples[exampleKey(index)] = { summary: example.title, value };
    }
    const json = jsonSchema(schema, "input");
    return {
      name,
      in: "query",
      required: param.required,
      description: (json.description as string | undefined) ?? "",
      schema: json,
      ...(param.kind === "list" ? { style: "form", explode: true } : {}),
      ...(Object.keys(examples).length > 0 ? { examples } : {}),
    };
  });
}

function operationObject(operation: AnyOperation): JsonObject {
  const examples: JsonObject = {};
  for (const [index, example] of operation.examples.entries()) {
    examples[exampleKey(index)] = { summary: example.title, value: example.output };
  }
  return {
    operationId: `${operation.area}.${operation.name.replaceAll("/", ".")}`,
    tags: [operation.area],
    summary: operation.summary,
    description: operation.description,
    parameters: parametersOf(operation),
    responses: {
      "200": {
        description: "The calculation's result.",
        content: {
          "application/json": { schema: jsonSchema(operation.output, "output"), examples },
        },
      },
      "401": ref("Unauthorized"),
      ...(operation.notFound ? { "404": { ...errorResponse(operation.notFound) } } : {}),
      "422": ref("ValidationError"),
      "429": ref("TooManyRequests"),
      "431": ref("RequestTooLarge"),
      "500": ref("InternalError"),
    },
  };
}

/** What an area's tag says: its path and its operations' summaries, from the registry. */
function tagDescription(area: string, operations: readonly AnyOperation[]): string {
  const members = operations.filter((operation) => operation.area === area);
  const lines = members.map(
    (operation) => `\`${operation.name}\`: ${operation.summary.replace(/\.$/, "")}`,
  );
  return `Operations under \`/v1/${area}/\`. ${lines.join("; ")}.`;
}

export interface DocumentInfo {
  version: string;
  description?: string;
}

/**
 * Builds the OpenAPI 3.1 document for `operations`.
 *
 * @example
 * const doc = buildOpenApiDocument(operations, { version: "1.0.0" });
 * doc.paths["/v1/math/sum"].get.parameters[0].name; // "numbers"
 */
export function buildOpenApiDocument(
  operations: readonly AnyOperation[],
  info: DocumentInfo,
  fragments: readonly OpenApiFragment[] = [],
) {
  const paths: Record<string, JsonObject> = {};
  for (const operation of operations)
    paths[pathOf(operation)] = { get: operationObject(operation) };
  const areas = [...new Set(operations.map((operation) => operation.area))];
  // After the operations' paths: what the other surfaces serve (/v1/me, the admin API…).
  const pick = (part: Exclude<keyof OpenApiFragment, "paths" | "tags">) =>
    Object.assign({}, ...fragments.map((fragment) => fragment[part] ?? {}));
  for (const fragment of fragments) Object.assign(paths, fragment.paths);
  return {
    openapi: "3.1.0",
    info: {
      title: "Utility Calculation Service",
      version: info.version,
      description:
        info.description ??
        "Small, stateless calculations, exact where others round. Every `/v1` operation needs an " +
          "`X-API-Key` header. Arithmetic is done in arbitrary-precision decimal: results carry " +
          "`result` (the nearest double) and `decimal` (the exact value as a string). Invalid " +
          "input answers 422 with every problem listed, in the FastAPI/Pydantic v2 shape. A " +
          "query value is percent-decoded as strict UTF-8: a `%` not followed by two hex digits, " +
          "or bytes that are not valid UTF-8 (overlong forms, encoded surrogates), is a 422 " +
          "`value_error` at that parameter, never replaced with U+FFFD; arbitrary bytes go in " +
          "with the `hex`/`base64` encodings where an operation offers them.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/" }],
    security: [{ ApiKeyAuth: [] }],
    tags: [
      ...areas.map((area) => ({ name: area, description: tagDescription(area, operations) })),
      ...fragments.flatMap((fragment) => fragment.tags ?? []),
    ],
    paths,
    components: {
      securitySchemes: {
        ApiKeyAuth: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: "A key: one of API_KEYS, or a managed key (ucs_…).",
        },
        ...pick("securitySchemes"),
      },
      schemas: {
        ErrorMessage: {
          type: "object",
          required: ["detail"],
          properties: { detail: { type: "string" } },
        },
        ValidationProblem: problemSchema,
        HTTPValidationError: {
          type: "object",
          required: ["detail"],
          properties: {
            detail: { type: "array", items: { $ref: "#/components/schemas/ValidationProblem" } },
          },
        },
        ...pick("schemas"),
      },
      responses: {
        Unauthorized: errorResponse("No valid X-API-Key header.", {
          "WWW-Authenticate": { schema: { type: "string" }, description: "The scheme to use." },
        }),
        ValidationError: {
          description: "Invalid input: every problem of the request, Pydantic v2 style.",
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/HTTPValidationError" } },
          },
        },
        TooManyRequests: errorResponse("Rate limit reached for this key.", {
          "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." },
        }),
        RequestTooLarge: errorResponse(
          "The request line and headers exceed 128 KiB (a URL-encoded text or list that long).",
        ),
        InternalError: errorResponse("An unexpected fault; nothing more is said."),
        ...pick("responses"),
      },
    },
  };
}
