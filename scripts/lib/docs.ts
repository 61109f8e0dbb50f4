/**
 * The generated parts of README.md and docs/api.md, rendered from the OpenAPI document
 * (itself generated from the registry), so the prose cannot drift from what the service
 * answers; and the GraphQL schema in docs/graphql-schema.md. `npm run docs` writes them;
 * test/docs.test.ts fails when a file is stale.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { printSchema } from "graphql";
import { pathOf } from "../../src/core/path.js";
import { buildGraphqlSchema, graphqlFieldOf } from "../../src/graphql/schema.js";
import type { AnyOperation } from "../../src/kit/define.js";
import { buildOpenApiDocument } from "../../src/openapi/document.js";

type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
};

interface Parameter {
  name: string;
  required: boolean;
  description: string;
  schema: Schema;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** A table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replaceAll("|", "\\|");

const code = (value: unknown) => `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;

/** A schema's type in words: `decimal`, `integer`, `list of decimal`, `hex` or `base64`… */
function typeOf(schema: Schema): string {
  if (schema.enum) return schema.enum.map(code).join(" | ");
  const types = [schema.type ?? "any"].flat();
  const named = types.map((type) => {
    if (type === "string" && schema.format === "decimal") return "decimal";
    if (type === "array") return `list of ${schema.items ? typeOf(schema.items) : "any"}`;
    return type;
  });
  return named.join(" or ");
}

/** Bounds and defaults worth a reader's attention (the safe-integer range goes unsaid). */
function constraintsOf(schema: Schema): string[] {
  const said: string[] = [];
  const { minimum, maximum } = schema;
  if (minimum !== undefined && minimum > -SAFE && maximum !== undefined && maximum < SAFE) {
    said.push(`${minimum} to ${maximum}`);
  } else if (minimum !== undefined && minimum > -SAFE) said.push(`≥ ${minimum}`);
  else if (maximum !== undefined && maximum < SAFE) said.push(`≤ ${maximum}`);
  if (schema.format !== "decimal") {
    if (schema.minLength !== undefined && schema.maxLength !== undefined) {
      said.push(`${schema.minLength} to ${schema.maxLength} characters`);
    } else if (schema.maxLength !== undefined) said.push(`at most ${schema.maxLength} characters`);
    else if (schema.minLength !== undefined) said.push(`at least ${schema.minLength} characters`);
  }
  if (schema.minItems !== undefined || schema.maxItems !== undefined) {
    said.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? "any number of"} items`);
  }
  if (schema.default !== undefined) said.push(`default ${code(schema.default)}`);
  return said;
}

/** Rows for an object's fields; nested objects and lists of objects as `a.b` / `a[].b`. */
function fieldRows(schema: Schema, prefix = ""): string[] {
  const rows: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    const nested = field.items?.properties ? field.items : field.properties ? field : undefined;
    const type = field.items?.properties
      ? "list of objects"
      : field.properties
        ? "object"
        : typeOf(field);
    const always = required.has(name) ? "" : " (may be absent)";
    rows.push(`| \`${path}\` | ${cell(type)} | ${cell(`${field.description ?? ""}${always}`)} |`);
    if (nested) rows.push(...fieldRows(nested, `${path}${field.items?.properties ? "[]" : ""}.`));
  }
  return rows;
}

/**
 * An example input as a query string a person can type: lists comma-separated (repeated
 * when an item holds a comma), only what must be escaped escaped.
 *
 * @example
 * exampleQuery({ numbers: ["0.1", "0.2"] }); // "numbers=0.1,0.2"
 */
export function exampleQuery(input: Record<string, unknown>): string {
  const readable = (value: unknown) =>
    encodeURIComponent(String(value)).replace(/%(2C|3A|2F)/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  return Object.entries(input)
    .flatMap(([name, value]) => {
      if (!Array.isArray(value)) return [`${name}=${readable(value)}`];
      if (value.some((item) => String(item).includes(","))) {
        return value.map((item) => `${name}=${encodeURIComponent(String(item))}`);
      }
      return [`${name}=${value.map(readable).join(",")}`];
    })
    .join("&");
}

/** The request line of an operation's example. */
export function exampleRequest(operation: AnyOperation, index = 0): string {
  const example = operation.examples[index];
  const query = example ? exampleQuery(example.input as Record<string, unknown>) : "";
  return query ? `${pathOf(operation)}?${query}` : pathOf(operation);
}

/** GitHub's anchor for a heading: lowercase, punctuation other than `-` and `_` dropped. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const idOf = (operation: AnyOperation) => `${operation.area}/${operation.name}`;

/** Longest sample answer README shows whole; a longer one ends in `…` (api.md has it all). */
export const SAMPLE_ANSWER_CHARS = 100;

/** An example's answer as README shows it: its JSON, cut after SAMPLE_ANSWER_CHARS. */
export function sampleAnswer(output: unknown): string {
  const json = JSON.stringify(output);
  return json.length <= SAMPLE_ANSWER_CHARS ? json : `${json.slice(0, SAMPLE_ANSWER_CHARS)}…`;
}

/**
 * README's table: each operation, its first example as a request, and the answer (the
 * docs test sends each request and compares).
 */
export function renderOperationsTable(operations: readonly AnyOperation[]): string {
  const rows = operations.map((operation) => {
    const example = operation.examples[0];
    const answer = example ? code(sampleAnswer(example.output)) : "";
    const link = `[${idOf(operation)}](docs/api.md#${slug(idOf(operation))})`;
    return `| ${link} | ${cell(code(exampleRequest(operation)))} → ${cell(answer)} |`;
  });
  return ["| Operation | Sample request → answer |", "|---|---|", ...rows].join("\n");
}

/**
 * docs/api.md's reference: per operation its parameters, result fields, errors and every
 * example, read from the OpenAPI document the service serves.
 */
export function renderApiReference(operations: readonly AnyOperation[]): string {
  const document = buildOpenApiDocument(operations, { version: "docs" });
  const paths = document.paths as Record<string, { get: Record<string, unknown> }>;
  const sections: string[] = [];
  for (const area of [...new Set(operations.map((operation) => operation.area))]) {
    sections.push(`### Area \`${area}\``);
    for (const operation of operations.filter((o) => o.area === area)) {
      const get = paths[pathOf(operation)]?.get ?? {};
      const parameters = (get.parameters ?? []) as Parameter[];
      const responses = get.responses as Record<
        string,
        { content?: Record<string, { schema: Schema }> }
      >;
      const result = responses["200"]?.content?.["application/json"]?.schema ?? {};
      const lines = [
        `#### ${idOf(operation)}`,
        "",
        `**${operation.summary}** — \`GET ${pathOf(operation)}\`, GraphQL \`${graphqlPath(operation)}\``,
        "",
        operation.description.trim(),
        "",
        "| Parameter | Type | Required | Constraints | Description |",
        "|---|---|---|---|---|",
        ...parameters.map(
          (p) =>
            `| \`${p.name}\` | ${cell(typeOf(p.schema))} | ${p.required ? "yes" : "no"} | ${cell(constraintsOf(p.schema).join("; ") || "—")} | ${cell(p.description)} |`,
        ),
        "",
        "| Field | Type | Description |",
        "|---|---|---|",
        ...fieldRows(result),
        "",
        `Errors: 422 (invalid input)${operation.notFound ? `, 404 (${cell(operation.notFound)})` : ""}, and those of every operation (401, 429, 431, 500).`,
        "",
        ...operation.examples.flatMap((example, index) => [
          `- ${example.title}: \`GET ${exampleRequest(operation, index)}\` →`,
          `  \`${JSON.stringify(example.output)}\``,
        ]),
      ];
      sections.push(lines.join("\n"));
    }
  }
  return sections.join("\n\n");
}

function graphqlPath(operation: AnyOperation): string {
  const { area, field } = graphqlFieldOf(operation);
  return `${area} { ${field}(…) }`;
}

/** The GraphQL schema as SDL, pinned in the docs so a change to it shows in review. */
export function renderGraphqlSchema(operations: readonly AnyOperation[]): string {
  return `\`\`\`graphql\n${printSchema(buildGraphqlSchema(operations))}\n\`\`\``;
}

/** `text` with the block between `<!-- generated:name -->` markers replaced by `content`. */
export function replaceGenerated(text: string, name: string, content: string): string {
  const begin = `<!-- generated:${name} (npm run docs) -->`;
  const end = `<!-- /generated:${name} -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${begin} … ${end} block`);
  return `${text.slice(0, from + begin.length)}\n${content}\n${text.slice(to)}`;
}

/** The files `npm run docs` writes, and the generated blocks in each. */
export const GENERATED: readonly {
  file: string;
  block: string;
  render: (operations: readonly AnyOperation[]) => string;
}[] = [
  { file: "README.md", block: "operations", render: renderOperationsTable },
  { file: "docs/api.md", block: "reference", render: renderApiReference },
  { file: "docs/graphql-schema.md", block: "schema", render: renderGraphqlSchema },
];

/**
 * Rewrites the generated blocks of every file in {@link GENERATED} from `operations`;
 * answers, per file, whether it changed (`npm run docs`, and the scaffold after it writes).
 */
export async function writeGeneratedDocs(
  operations: readonly AnyOperation[],
  root = ".",
): Promise<{ file: string; changed: boolean }[]> {
  const results: { file: string; changed: boolean }[] = [];
  for (const { file, block, render } of GENERATED) {
    const where = path.join(root, file);
    const before = await readFile(where, "utf8");
    const after = replaceGenerated(before, block, render(operations));
    if (after !== before) await writeFile(where, after);
    results.push({ file, changed: after !== before });
  }
  return results;
}
