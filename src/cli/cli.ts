/**
 * The command line, generated from the registry: `ucs list`, `ucs <area> <name> --param
 * value …`, `ucs <area> <name> --help`. Flags become query values and go through REST's
 * own conversion (src/rest/query.ts), so a list is given exactly as the query string
 * takes it: repeated flags, comma-separated, or both. Runs in-process through the one
 * runner, or sends the call to a running service (`--url`, `--key`). Help texts are in
 * help.ts, answers and errors are printed by output.ts, and everything is written through
 * its `guardedIo`.
 */

import { pathOf } from "../core/path.js";
import { locate } from "../core/problems.js";
import { planFor, QueryValues, toInput } from "../core/query.js";
import { execute, InvalidInputError, NotFoundError } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { listing, operationHelp, PROGRAM, usage } from "./help.js";
import { runKeys } from "./keys.js";
import { type CliIo, EXIT_FAILURE, EXIT_INVALID, EXIT_OK, guardedIo, report } from "./output.js";
import { runRecipeCommand } from "./recipe.js";

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
  const values = new QueryValues();
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
    values.add(name, value);
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
  for (const [name, list] of values) for (const value of list) query.append(name, value);
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
  // Managed keys are the command line's own, not an operation: keys.ts.
  if (argv[0] === "keys") return runKeys(argv.slice(1), io);
  if (argv[0] === "recipe") return runRecipeCommand(argv.slice(1), operations, io);
  const byId = new Map(
    operations.map((operation) => [`${operation.area}/${operation.name}`, operation]),
  );
  const { positionals, globals, values, problems } = parseArgs(argv, byId);
  const url = globals.url ?? io.env.UCS_URL;
  // Everything below prints through it: control characters visible, credentials hidden.
  const out = guardedIo(io, globals.json, url);
  if (positionals.length === 0) {
    (globals.help ? out.stdout : out.stderr).write(usage());
    return globals.help ? EXIT_OK : EXIT_INVALID;
  }
  if (positionals.length === 1 && positionals[0] === "list") {
    out.stdout.write(listing(operations));
    return EXIT_OK;
  }
  const id = positionals.join("/");
  const operation = byId.get(id);
  if (!operation) {
    out.stderr.write(`${PROGRAM}: no operation '${id}'; '${PROGRAM} list' shows them all\n`);
    return EXIT_FAILURE;
  }
  if (globals.help) {
    out.stdout.write(operationHelp(operation));
    return EXIT_OK;
  }
  try {
    if (url && problems.length === 0) {
      const answer = await runRemote(operation, values, url, globals.key ?? io.env.UCS_API_KEY);
      return report(out, globals.json, answer.status, answer.body, answer.raw);
    }
    const answer = runInProcess(operation, values, problems);
    return report(out, globals.json, answer.status, answer.body);
  } catch (error) {
    out.stderr.write(`${PROGRAM}: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT_FAILURE;
  }
}
