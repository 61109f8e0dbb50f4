/**
 * `ucs recipe FILE` (API.md §8): a recipe (`{"steps": […]}`) from a file, or from standard
 * input with `-`, run in this process through the one recipe runner, or posted to a
 * running service (`--url`, `--key`). `--dry-run` prices it without running it.
 */
import { readFile } from "node:fs/promises";
import { checkRecipe, priceRecipe, RECIPES_PATH, recipeBook, runRecipe } from "../core/recipes.js";
import { execute } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { PROGRAM } from "./help.js";
import {
  type CliIo,
  EXIT_FAILURE,
  EXIT_INVALID,
  EXIT_OK,
  formatValue,
  guardedIo,
  report,
} from "./output.js";

/** Bytes a recipe file may have: what the service takes as a body. */
const MAX_RECIPE_BYTES = 1024 * 1024;

export const RECIPE_USAGE = [
  `Usage: ${PROGRAM} recipe FILE [--dry-run] [--json] [--url URL] [--key KEY]`,
  "",
  'Runs the recipe in FILE ("-" for standard input): {"steps": [{"id", "op", "args"}, …]},',
  'where an argument may be {"$ref": "<stepId>.<path>"} into an earlier step\'s output.',
  "--dry-run checks and prices it without running it. Exit codes: 0 every step answered 200,",
  "2 the recipe is invalid, 1 anything else (a step that did not answer 200). See docs/recipes.md.",
  "",
].join("\n");

interface RecipeArgs {
  file?: string;
  dryRun: boolean;
  json: boolean;
  help: boolean;
  url?: string;
  key?: string;
  problems: string[];
}

function parseRecipeArgs(argv: readonly string[]): RecipeArgs {
  const parsed: RecipeArgs = { dryRun: false, json: false, help: false, problems: [] };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    const [name, inline] = arg.startsWith("--") ? splitOption(arg) : [undefined, undefined];
    if (arg === "-h" || name === "help") parsed.help = true;
    else if (name === "json") parsed.json = true;
    else if (name === "dry-run") parsed.dryRun = true;
    else if (name === "url" || name === "key" || name === "api-key") {
      const value = inline ?? argv[++index];
      if (value === undefined) parsed.problems.push(`--${name} needs a value`);
      else if (name === "url") parsed.url = value;
      else parsed.key = value;
    } else if (name !== undefined) parsed.problems.push(`unknown option --${name}`);
    else if (parsed.file === undefined) parsed.file = arg;
    else parsed.problems.push(`one FILE only ('${arg}' is a second)`);
  }
  return parsed;
}

function splitOption(arg: string): [string, string | undefined] {
  const equals = arg.indexOf("=");
  return equals < 0 ? [arg.slice(2), undefined] : [arg.slice(2, equals), arg.slice(equals + 1)];
}

/** The text of `file`, or of standard input for `-`, at most {@link MAX_RECIPE_BYTES}. */
async function readRecipeText(file: string, io: CliIo): Promise<string> {
  if (file !== "-") {
    const text = await readFile(file, "utf8");
    if (Buffer.byteLength(text) > MAX_RECIPE_BYTES) throw new Error(`${file} is over 1 MiB`);
    return text;
  }
  if (io.stdin === undefined) throw new Error("no standard input to read");
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of io.stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    if (bytes > MAX_RECIPE_BYTES) throw new Error("standard input is over 1 MiB");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The answer in readable form: each step's id, operation and status, then its output or why. */
function readableAnswer(
  steps: { id: string; op: string; status: number; output?: unknown; detail?: unknown }[],
): string {
  const lines: string[] = [];
  for (const step of steps) {
    lines.push(`${step.id} (${step.op}): ${step.status}`);
    if (step.status === 200 && typeof step.output === "object" && step.output !== null) {
      for (const [name, value] of Object.entries(step.output)) {
        lines.push(`  ${name}: ${formatValue(value)}`);
      }
    } else if (Array.isArray(step.detail)) {
      for (const problem of step.detail as Problem[]) {
        lines.push(`  ${problem.loc.slice(1).join(".")}: ${problem.msg} [${problem.type}]`);
      }
    } else {
      lines.push(`  ${formatValue(step.detail ?? step.output)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** In this process: the status and body `POST /v1/recipes` would answer (no key, no quota). */
function runLocally(
  operations: readonly AnyOperation[],
  body: unknown,
  dryRun: boolean,
  onFault: (error: unknown) => void,
) {
  const book = recipeBook(operations);
  const check = checkRecipe(book, body, { source: "body" });
  if (check.recipe === undefined) return { status: 422, body: { detail: check.problems } };
  if (dryRun) return { status: 200, body: priceRecipe(check.recipe) };
  return {
    status: 200,
    body: runRecipe(book, check.recipe, execute, onFault).answer,
  };
}

async function runRemotely(url: string, key: string | undefined, text: string, dryRun: boolean) {
  const target = `${url.replace(/\/+$/, "")}${RECIPES_PATH}${dryRun ? "?dryRun=true" : ""}`;
  const response = await fetch(target, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
    body: text,
  });
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
 * Runs `ucs recipe …` (`argv` after `recipe`); resolves to the exit code.
 *
 * @example
 * await runRecipeCommand(["recipe.json", "--json"], operations, io);
 */
export async function runRecipeCommand(
  argv: readonly string[],
  operations: readonly AnyOperation[],
  io: CliIo,
): Promise<number> {
  const args = parseRecipeArgs(argv);
  const url = args.url ?? io.env.UCS_URL;
  const out = guardedIo(io, args.json, url);
  if (args.help) {
    out.stdout.write(RECIPE_USAGE);
    return EXIT_OK;
  }
  if (args.file === undefined || args.problems.length > 0) {
    const why = args.problems.length > 0 ? args.problems.join("; ") : "FILE is missing";
    out.stderr.write(`${PROGRAM} recipe: ${why}\n${RECIPE_USAGE}`);
    return EXIT_INVALID;
  }
  try {
    const text = await readRecipeText(args.file, io);
    if (url) {
      const answer = await runRemotely(url, args.key ?? io.env.UCS_API_KEY, text, args.dryRun);
      return finish(out, args, answer.status, answer.body, answer.raw);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      out.stderr.write(
        `${PROGRAM} recipe: ${args.file} is not JSON: ${(error as Error).message}\n`,
      );
      return EXIT_INVALID;
    }
    const answer = runLocally(operations, body, args.dryRun, (error) =>
      out.stderr.write(`${PROGRAM} recipe: unexpected fault: ${(error as Error)?.message}\n`),
    );
    return finish(out, args, answer.status, answer.body);
  } catch (error) {
    out.stderr.write(`${PROGRAM} recipe: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT_FAILURE;
  }
}

/** Prints the answer; the exit code says whether every step answered 200. */
function finish(out: CliIo, args: RecipeArgs, status: number, body: unknown, raw?: string): number {
  const steps = (body as { steps?: unknown } | null)?.steps;
  if (status !== 200 || args.dryRun || !Array.isArray(steps)) {
    return report(out, args.json, status, body, raw);
  }
  out.stdout.write(args.json ? `${raw ?? JSON.stringify(body)}\n` : readableAnswer(steps));
  return steps.every((step) => (step as { status?: unknown }).status === 200)
    ? EXIT_OK
    : EXIT_FAILURE;
}
