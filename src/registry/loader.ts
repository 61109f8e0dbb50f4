/**
 * Discovers operation modules under a folder and checks each one before the service
 * starts: a module that is malformed, clashes with another, or whose examples break its
 * own schemas stops the start with a message naming the file.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type AnyOperation, isOperation } from "../kit/define.js";
import { describeParam } from "../kit/params.js";

export class OperationLoadError extends Error {
  override name = "OperationLoadError";
}

/** `operations/` beside `src/`, in the source tree and in `dist/` alike. */
export const DEFAULT_OPERATIONS_DIR = fileURLToPath(new URL("../../operations/", import.meta.url));

/** Source files under vitest/tsx, compiled files under `dist/`. */
const MODULE_EXTENSION = path.extname(fileURLToPath(import.meta.url));

const AREA = /^[a-z][a-z0-9-]*$/;
const NAME = /^[a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)*$/;

/** Files that are operations: not tests, not declarations, not `_helpers`. */
function isOperationFile(name: string): boolean {
  return (
    name.endsWith(MODULE_EXTENSION) &&
    !name.startsWith("_") &&
    !name.endsWith(`.test${MODULE_EXTENSION}`) &&
    !name.endsWith(`.d${MODULE_EXTENSION}`)
  );
}

async function operationFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && isOperationFile(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(
      (file) =>
        !path
          .relative(dir, file)
          .split(path.sep)
          .some((part) => part.startsWith("_")),
    )
    .sort();
}

/**
 * Checks one operation against the rules every gateway relies on; returns the problems.
 * `where` is the `<area>/<name>` its file path implies, when loaded from a file.
 */
export function checkOperation(operation: AnyOperation, where?: string): string[] {
  const problems: string[] = [];
  const id = `${operation.area}/${operation.name}`;
  if (!AREA.test(operation.area)) problems.push(`area '${operation.area}' must match ${AREA}`);
  if (!NAME.test(operation.name)) problems.push(`name '${operation.name}' must match ${NAME}`);
  if (where !== undefined && where !== id) {
    problems.push(`declares '${id}' but its file path says '${where}'`);
  }
  if (!operation.summary?.trim()) problems.push("summary is empty");
  if (!operation.description?.trim()) problems.push("description is empty");
  if (typeof operation.handler !== "function") problems.push("handler is not a function");
  if (operation.input?._zod?.def.type !== "object") {
    problems.push("input must be a zod object schema");
    return problems;
  }
  for (const [param, schema] of Object.entries(operation.input.shape)) {
    try {
      describeParam(schema);
    } catch (error) {
      problems.push(`parameter '${param}': ${(error as Error).message}`);
    }
  }
  if (!Array.isArray(operation.examples) || operation.examples.length === 0) {
    problems.push("needs at least one example");
  }
  for (const [index, example] of (operation.examples ?? []).entries()) {
    const input = operation.input.safeParse(example.input);
    if (!input.success) problems.push(`example ${index} input: ${input.error.message}`);
    const output = operation.output.safeParse(example.output);
    if (!output.success) problems.push(`example ${index} output: ${output.error.message}`);
  }
  return problems;
}

/**
 * Imports every operation module under `dirs`, checks them, and returns them sorted by
 * path. Throws {@link OperationLoadError} listing every problem found.
 *
 * @example
 * const operations = await loadOperations(); // from ./operations
 */
export async function loadOperations(
  dirs: string[] = [DEFAULT_OPERATIONS_DIR],
): Promise<AnyOperation[]> {
  const operations: AnyOperation[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const dir of dirs) {
    for (const file of await operationFiles(dir)) {
      const relative = path.relative(dir, file);
      const where = relative.slice(0, -MODULE_EXTENSION.length).split(path.sep).join("/");
      const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
      const operation = module.default;
      if (!isOperation(operation)) {
        problems.push(`${file}: the default export is not an operation made by defineOperation`);
        continue;
      }
      const id = `${operation.area}/${operation.name}`;
      const previous = seen.get(id);
      if (previous) problems.push(`${file}: '${id}' is already defined by ${previous}`);
      seen.set(id, file);
      for (const problem of checkOperation(operation, where)) problems.push(`${file}: ${problem}`);
      operations.push(operation);
    }
  }
  if (problems.length > 0) {
    throw new OperationLoadError(`operations failed to load:\n  ${problems.join("\n  ")}`);
  }
  return operations.sort((a, b) => pathOf(a).localeCompare(pathOf(b)));
}

/** The REST path of an operation: `/v1/<area>/<name>`. */
export function pathOf(operation: AnyOperation): string {
  return `/v1/${operation.area}/${operation.name}`;
}
