/**
 * The command line's help, generated from the registry: the usage, the list of operations,
 * and each operation's parameters (kind, bounds, default, documentation) and examples as
 * commands.
 */

import { jsonSchema } from "../core/json-schema.js";
import type { AnyOperation } from "../kit/define.js";
import { describeParam, type ParamDescription } from "../kit/params.js";
import { formatValue } from "./output.js";

export const PROGRAM = "ucs";

function shellWord(value: string): string {
  return /^[A-Za-z0-9._:/,+=@%-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function commandOf(operation: AnyOperation): string {
  return `${PROGRAM} ${operation.area} ${operation.name}`;
}

/** An example's input as a command line: lists as repeated flags, so commas stay items. */
function exampleCommand(operation: AnyOperation, input: Record<string, unknown>): string {
  const flags = Object.entries(input).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((item) => `--${name} ${shellWord(String(item))}`),
  );
  return [commandOf(operation), ...flags].join(" ");
}

function kindLabel(param: ParamDescription): string {
  if (param.kind === "list" && param.item) return `${kindLabel(param.item)}…`;
  if (param.kind === "enum") return (param.values ?? []).join("|");
  return param.kind === "string" ? "text" : param.kind;
}

function bounds(param: ParamDescription): string | undefined {
  const { min, max } = param;
  if (min === undefined && max === undefined) return undefined;
  const unit = param.kind === "list" ? " items" : param.kind === "string" ? " characters" : "";
  if (min !== undefined && max !== undefined) return `${min} to ${max}${unit}`;
  return min !== undefined ? `at least ${min}${unit}` : `at most ${max}${unit}`;
}

/**
 * `ucs <area> <name> --help`: the summary, the module's description, every parameter
 * with its kind, bounds, default and documentation, and the examples as commands.
 */
export function operationHelp(operation: AnyOperation): string {
  const lines = [
    `${commandOf(operation)}: ${operation.summary}`,
    "",
    operation.description.trim(),
    "",
  ];
  const params = Object.entries(operation.input.shape).map(([name, schema]) => {
    const param = describeParam(schema);
    const json = jsonSchema(schema, "input");
    const notes = [
      param.required ? "required" : "optional",
      ...(json.default === undefined ? [] : [`default ${formatValue(json.default)}`]),
      ...(bounds(param) ? [bounds(param) as string] : []),
      ...(param.kind === "list" ? ["repeat the flag or separate items with commas"] : []),
    ];
    const doc = typeof json.description === "string" ? ` ${json.description}` : "";
    return { name, param, text: `(${notes.join("; ")})${doc}` };
  });
  const usage = params
    .map(({ name, param }) => {
      const flag = `--${name} <${kindLabel(param)}>`;
      return param.required ? flag : `[${flag}]`;
    })
    .join(" ");
  // hmac-md5 has a `key` parameter of its own: there, the API key is --api-key only.
  const keyFlag = "key" in operation.input.shape ? "--api-key" : "--key";
  lines.push(
    `Usage: ${commandOf(operation)}${usage ? ` ${usage}` : ""} [--json] [--url URL ${keyFlag} KEY]`,
  );
  if (params.length > 0) {
    lines.push("", "Parameters:");
    for (const { name, param, text } of params) {
      lines.push(`  --${name} <${kindLabel(param)}>`, `      ${text}`);
    }
  }
  lines.push("", "Examples:");
  for (const example of operation.examples) {
    lines.push(`  # ${example.title}`, `  ${exampleCommand(operation, example.input)}`);
  }
  return `${lines.join("\n")}\n`;
}

export function usage(): string {
  return [
    `Usage: ${PROGRAM} list`,
    `       ${PROGRAM} <area> <name> [--<parameter> <value> …] [--json] [--url URL] [--key KEY]`,
    `       ${PROGRAM} <area> <name> --help`,
    `       ${PROGRAM} keys create|list|show|update|revoke|roll|usage …  (${PROGRAM} keys --help)`,
    `       ${PROGRAM} recipe FILE|- [--dry-run] [--json] [--url URL] [--key KEY]  (${PROGRAM} recipe --help)`,
    "",
    "Runs an operation of the Utility Calculation Service in this process, or, with --url",
    "(or UCS_URL), on a running service with the key from --key/--api-key (or UCS_API_KEY).",
    "--json prints the raw JSON body. Exit codes: 0 answer, 2 invalid input, 1 anything else.",
    "",
  ].join("\n");
}

export function listing(operations: readonly AnyOperation[]): string {
  const lines: string[] = [];
  let area: string | undefined;
  const width = Math.max(...operations.map((operation) => operation.name.length));
  for (const operation of operations) {
    if (operation.area !== area) {
      area = operation.area;
      lines.push(`${lines.length > 0 ? "\n" : ""}${area}`);
    }
    lines.push(`  ${operation.name.padEnd(width)}  ${operation.summary}`);
  }
  return `${lines.join("\n")}\n`;
}
