/**
 * The command line, generated from the registry: `ucs list`, `ucs <area> <name> --param
 * value …`, `ucs <area> <name> --help`. Flags become query values and go through REST's
 * own conversion (src/rest/query.ts), so a list is given exactly as the query string
 * takes it: repeated flags, comma-separated, or both. Runs in-process through the one
 * runner, or sends the call to a running service (`--url`, `--key`).
 *
 * Over 300 lines on purpose: flag parsing, help text and the two ways of running are one
 * small program, read top to bottom; split, each part would only make sense with the others.
 */

import { locate } from "../core/problems.js";
import { execute, InvalidInputError, NotFoundError } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { describeParam, type ParamDescription } from "../kit/params.js";
import { jsonSchema } from "../openapi/document.js";
import { pathOf } from "../rest/path.js";
import { planFor, type QueryValues, toInput } from "../rest/query.js";

export const PROGRAM = "ucs";

/** Exit codes: an answer, anything else, invalid input. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_INVALID = 2;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** UCS_URL and UCS_API_KEY are read from here. */
  env: Record<string, string | undefined>;
}

/** The options that belong to the command line itself, not to an operation. */
interface Globals {
  json: boolean;
  help: boolean;
  url?: string;
  key?: string;
}

interface Parsed {
  positionals: string[];
  globals: Globals;
  values: QueryValues;
  /** Problems of the command line itself (a flag without its value). */
  problems: Problem[];
}

/** Options that take no value. */
const SWITCHES = new Set(["json", "help"]);
/** Options of the command line that take a value; an operation's own parameter wins. */
const VALUED = new Set(["url", "key", "api-key"]);

/**
 * Splits `argv` into positionals (area and name), the command line's own options, and
 * the operation's parameters as query values. `--name value` and `--name=value` are both
 * accepted; an operation parameter named like one of ours (hmac-md5's `key`) is the
 * parameter, and `--api-key` is always the API key.
 */
function parseArgs(argv: readonly string[], operations: ReadonlyMap<string, AnyOperation>): Parsed {
  const positionals: string[] = [];
  const globals: Globals = { json: false, help: false };
  const values: QueryValues = Object.create(null);
  const problems: Problem[] = [];
  let index = 0;
  for (; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg.startsWith("-")) break;
    positionals.push(arg);
  }
  const plan = planOf(operations.get(positionals.join("/")));
  for (; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === "-h") {
      globals.help = true;
      continue;
    }
    if (!arg.startsWith("--")) {
      problems.push({
        loc: [],
        msg: `Value error, '${arg}' is not an option; give parameters as --name value`,
        type: "value_error",
      });
      continue;
    }
    const equals = arg.indexOf("=");
    const name = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
    const param = plan.get(name);
    if (!param && SWITCHES.has(name) && equals < 0) {
      globals[name as "json" | "help"] = true;
      continue;
    }
    let value: string | undefined;
    if (equals >= 0) value = arg.slice(equals + 1);
    else if (param?.kind === "boolean" && !isValue(argv[index + 1])) value = "true";
    else if (isValue(argv[index + 1])) {
      index += 1;
      value = argv[index];
    }
    if (value === undefined) {
      problems.push({
        loc: [name],
        msg: "Value error, the option needs a value",
        type: "value_error",
      });
      continue;
    }
    if (!param && VALUED.has(name)) {
      if (name === "url") globals.url = value;
      else globals.key = value;
      continue;
    }
    const list = values[name];
    if (list) list.push(value);
    else values[name] = [value];
  }
  return { positionals, globals, values, problems };
}

function isValue(next: string | undefined): next is string {
  return next !== undefined && !next.startsWith("--");
}

const plans = new WeakMap<AnyOperation, ReturnType<typeof planFor>>();
const NO_PLAN: ReturnType<typeof planFor> = new Map();

function planOf(operation: AnyOperation | undefined): ReturnType<typeof planFor> {
  if (!operation) return NO_PLAN;
  let plan = plans.get(operation);
  if (!plan) {
    plan = planFor(operation);
    plans.set(operation, plan);
  }
  return plan;
}

// ---------------------------------------------------------------------------------------
// Output

function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  return JSON.stringify(value);
}

/** Readable output: one `field: value` line per field of the answer. */
function readable(body: unknown): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return `${formatValue(body)}\n`;
  }
  const entries = Object.entries(body);
  const width = Math.max(0, ...entries.map(([name]) => name.length));
  return entries
    .map(([name, value]) => `${`${name}:`.padEnd(width + 2)}${formatValue(value)}\n`)
    .join("");
}

function problemLines(detail: Problem[]): string {
  return detail
    .map(
      (problem) =>
        `  ${problem.loc.slice(1).join(".") || "(request)"}: ${problem.msg} [${problem.type}]\n`,
    )
    .join("");
}

/** Prints an answer or an error body as `--json` or readable output; returns the exit code. */
function report(io: CliIo, json: boolean, status: number, body: unknown, raw?: string): number {
  const code = status === 200 ? EXIT_OK : status === 422 ? EXIT_INVALID : EXIT_FAILURE;
  if (json) {
    io.stdout.write(`${raw ?? JSON.stringify(body)}\n`);
    return code;
  }
  if (status === 200) {
    io.stdout.write(readable(body));
    return code;
  }
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (status === 422 && Array.isArray(detail)) {
    io.stderr.write(`Invalid input:\n${problemLines(detail as Problem[])}`);
  } else {
    io.stderr.write(
      `Error (${status}): ${typeof detail === "string" ? detail : (raw ?? JSON.stringify(body))}\n`,
    );
  }
  return code;
}

// ---------------------------------------------------------------------------------------
// Help

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

function usage(): string {
  return [
    `Usage: ${PROGRAM} list`,
    `       ${PROGRAM} <area> <name> [--<parameter> <value> …] [--json] [--url URL] [--key KEY]`,
    `       ${PROGRAM} <area> <name> --help`,
    "",
    "Runs an operation of the Utility Calculation Service in this process, or, with --url",
    "(or UCS_URL), on a running service with the key from --key/--api-key (or UCS_API_KEY).",
    "--json prints the raw JSON body. Exit codes: 0 answer, 2 invalid input, 1 anything else.",
    "",
  ].join("\n");
}

function listing(operations: readonly AnyOperation[]): string {
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

// ---------------------------------------------------------------------------------------
// Running

/** Runs `operation` in this process: the REST body and status it would answer. */
function runInProcess(operation: AnyOperation, values: QueryValues, problems: Problem[]) {
  const converted = toInput(planOf(operation), values);
  try {
    return {
      status: 200,
      body: execute(operation, converted.input, [...problems, ...converted.problems]),
    };
  } catch (error) {
    if (error instanceof InvalidInputError) {
      return { status: 422, body: { detail: locate(error.problems, "query") } };
    }
    if (error instanceof NotFoundError) return { status: 404, body: { detail: error.message } };
    throw error;
  }
}

/** Sends the call to a running service: `GET <url>/v1/<area>/<name>?…` with the key. */
async function runRemote(
  operation: AnyOperation,
  values: QueryValues,
  url: string,
  key: string | undefined,
) {
  const query = new URLSearchParams();
  for (const name of Object.keys(values))
    for (const value of values[name] ?? []) query.append(name, value);
  const search = query.toString();
  const target = `${url.replace(/\/+$/, "")}${pathOf(operation)}${search ? `?${search}` : ""}`;
  const response = await fetch(target, { headers: key ? { "x-api-key": key } : {} });
  const raw = await response.text();
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // Not JSON (a proxy's page): reported as it came.
  }
  return { status: response.status, body, raw };
}

/**
 * Runs the command line `argv` (without `node` and the script) against `operations`;
 * resolves to the exit code.
 *
 * @example
 * await runCli(["math", "sum", "--numbers", "0.1,0.2", "--json"], operations, { stdout, stderr, env: {} });
 * // prints {"result":0.3,"decimal":"0.3","count":2}; resolves to 0
 */
export async function runCli(
  argv: readonly string[],
  operations: readonly AnyOperation[],
  io: CliIo,
): Promise<number> {
  const byId = new Map(
    operations.map((operation) => [`${operation.area}/${operation.name}`, operation]),
  );
  const { positionals, globals, values, problems } = parseArgs(argv, byId);
  if (positionals.length === 0) {
    (globals.help ? io.stdout : io.stderr).write(usage());
    return globals.help ? EXIT_OK : EXIT_INVALID;
  }
  if (positionals.length === 1 && positionals[0] === "list") {
    io.stdout.write(listing(operations));
    return EXIT_OK;
  }
  const id = positionals.join("/");
  const operation = byId.get(id);
  if (!operation) {
    io.stderr.write(`${PROGRAM}: no operation '${id}'; '${PROGRAM} list' shows them all\n`);
    return EXIT_FAILURE;
  }
  if (globals.help) {
    io.stdout.write(operationHelp(operation));
    return EXIT_OK;
  }
  const url = globals.url ?? io.env.UCS_URL;
  try {
    if (url && problems.length === 0) {
      const answer = await runRemote(operation, values, url, globals.key ?? io.env.UCS_API_KEY);
      return report(io, globals.json, answer.status, answer.body, answer.raw);
    }
    const answer = runInProcess(operation, values, problems);
    return report(io, globals.json, answer.status, answer.body);
  } catch (error) {
    io.stderr.write(`${PROGRAM}: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT_FAILURE;
  }
}
