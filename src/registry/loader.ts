/**
 * Discovers operation modules under folders and checks each one before the service
 * starts: a module that is malformed, clashes with another, or whose examples break its
 * own schemas or do not answer as documented stops the start with a message naming the
 * file. The built-in `operations/` comes first, then the operator's `OPERATIONS_DIRS`.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { execute, InvalidInputError, trustOutputsOf } from "../core/runner.js";
import { type AnyOperation, isOperation } from "../kit/define.js";
import { describeParam } from "../kit/params.js";
import {
  forgetStrippedSource,
  giveStrippedSource,
  OPERATION_QUERY,
  registerKitResolution,
} from "./kit-resolution.js";
import {
  MAX_EXAMPLES,
  MAX_PARAMETERS,
  type Verdict,
  type VetJob,
  type VetOptions,
  vetModules,
} from "./vet.js";

export class OperationLoadError extends Error {
  override name = "OperationLoadError";
}

/** `operations/` beside `src/`, in the source tree and in `dist/` alike. */
export const DEFAULT_OPERATIONS_DIR = fileURLToPath(new URL("../../operations/", import.meta.url));

/** Source files under vitest/tsx, compiled files under `dist/`. */
const MODULE_EXTENSION = path.extname(fileURLToPath(import.meta.url));
const FROM_SOURCE = MODULE_EXTENSION === ".ts";

/**
 * The checkout's sources of the built-in operations, when running from its `dist/`: what
 * `npm run new:operation` writes and a developer edits. Absent in an image (dist/ only).
 */
const SOURCE_OPERATIONS_DIR = FROM_SOURCE
  ? undefined
  : fileURLToPath(new URL("../../../operations/", import.meta.url));

/** What an operator's folder may hold: plain JavaScript, or TypeScript (run through tsx). */
const EXTRA_EXTENSIONS = [".mjs", ".mts", ".js", ".ts"]; // `.mjs` before `.js`: matched in order

const AREA = /^[a-z][a-z0-9-]*$/;
const NAME = /^[a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)*$/;

/** The file's extension if it is one of `extensions` (`.d.ts` and `.test.ts` are not). */
function moduleExtension(name: string, extensions: readonly string[]): string | undefined {
  const extension = extensions.find((ext) => name.endsWith(ext));
  if (extension === undefined || name.startsWith("_")) return undefined;
  const stem = name.slice(0, -extension.length);
  return stem.endsWith(".test") || stem.endsWith(".d") ? undefined : extension;
}

async function operationFiles(dir: string, extensions: readonly string[]): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && moduleExtension(entry.name, extensions) !== undefined)
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
 * `where` is the `<area>/<name>` its file path implies, when loaded from a file; with
 * `examples` "run" each example's input and output must parse and it must answer that
 * output; with "skip" they are left to the test suites (the built-in modules).
 */
export function checkOperation(
  operation: AnyOperation,
  where?: string,
  examples: "run" | "skip" = "run",
): string[] {
  const problems = limitProblems(operation);
  if (problems.length > 0) return problems;
  if (!AREA.test(operation.area)) problems.push(`area '${operation.area}' must match ${AREA}`);
  if (!NAME.test(operation.name)) problems.push(`name '${operation.name}' must match ${NAME}`);
  problems.push(...placementProblems(operation, where));
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
  for (const [index, example] of examples === "run" ? (operation.examples ?? []).entries() : []) {
    const input = operation.input.safeParse(example.input);
    if (!input.success) problems.push(`example ${index} input: ${input.error.message}`);
    const output = operation.output.safeParse(example.output);
    if (!output.success) problems.push(`example ${index} output: ${output.error.message}`);
    if (input.success && output.success && typeof operation.handler === "function") {
      const problem = runExample(operation, example.input, output.data);
      if (problem) problems.push(`example ${index} ${problem}`);
    }
  }
  return problems;
}

/** Whether `operation` declares the `<area>/<name>` its file path (`where`) implies. */
export function placementProblems(operation: AnyOperation, where?: string): string[] {
  const id = `${operation.area}/${operation.name}`;
  return where === undefined || where === id
    ? []
    : [`declares '${id}' but its file path says '${where}'`];
}

/**
 * More parameters or examples than {@link MAX_PARAMETERS} and {@link MAX_EXAMPLES}: every
 * one is work at each load (schemas, routes, documentation, examples run), so thousands
 * would hold the event loop for seconds or exhaust the heap. Checked before anything else.
 */
export function limitProblems(operation: AnyOperation): string[] {
  const problems: string[] = [];
  const input = operation.input as AnyOperation["input"] | undefined;
  if (input?._zod?.def.type === "object") {
    const parameters = Object.keys(input.shape).length;
    if (parameters > MAX_PARAMETERS) {
      problems.push(`declares ${parameters} parameters; at most ${MAX_PARAMETERS} are allowed`);
    }
  }
  const examples = Array.isArray(operation.examples) ? operation.examples.length : 0;
  if (examples > MAX_EXAMPLES) {
    problems.push(`declares ${examples} examples; at most ${MAX_EXAMPLES} are allowed`);
  }
  return problems;
}

/** Runs one example through the runner; what is wrong with its answer, if anything. */
function runExample(
  operation: AnyOperation,
  input: Record<string, unknown>,
  expected: unknown,
): string | undefined {
  let actual: unknown;
  try {
    actual = execute(operation, input);
  } catch (error) {
    const cause = error instanceof InvalidInputError ? error : ((error as Error)?.cause ?? error);
    return `fails: ${(cause as Error)?.message ?? String(cause)}`;
  }
  // Compared as the client would see them: through JSON.
  const seen = JSON.parse(JSON.stringify(actual)) as unknown;
  if (isDeepStrictEqual(seen, JSON.parse(JSON.stringify(expected)))) return undefined;
  return `answers ${JSON.stringify(seen).slice(0, 300)}, not its documented output`;
}

/**
 * The folders to load: the built-in `operations/`, then the operator's.
 *
 * @example
 * operationsDirs(["/srv/my-operations"]); // [".../operations/", "/srv/my-operations"]
 */
export function operationsDirs(extra: readonly string[] = []): string[] {
  return [DEFAULT_OPERATIONS_DIR, ...extra.map((dir) => path.resolve(dir))];
}

/**
 * The built-in modules a reload from `dist/` loads when the checkout's sources are beside
 * it: each operation from its compiled file when that is at least as new as its source,
 * else from the source (through tsx), so that a module the scaffold wrote, or one edited
 * since the build, serves at the next SIGHUP without a rebuild; a compiled module whose
 * source was deleted is not loaded. Undefined without a sources folder.
 */
export async function builtInFiles(
  compiledDir: string,
  sourceDir: string,
): Promise<string[] | undefined> {
  const sources = await operationFiles(sourceDir, [".ts"]).catch(() => undefined);
  if (sources === undefined) return undefined;
  const mtime = (file: string) =>
    stat(file).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
  const chosen: string[] = [];
  for (const source of sources) {
    const relative = path.relative(sourceDir, source);
    const compiled = path.join(compiledDir, `${relative.slice(0, -".ts".length)}.js`);
    const built = await mtime(compiled);
    const edited = await mtime(source);
    chosen.push(built !== undefined && edited !== undefined && built >= edited ? compiled : source);
  }
  return chosen;
}

/** Node runs `.ts` by stripping its types (Node 24, 22.18+): no TypeScript loader needed. */
const NODE_STRIPS_TYPES = Boolean((process.features as { typescript?: unknown }).typescript);

let typescriptLoader: Promise<void> | undefined;

/** Under plain Node (`dist/`), `.ts` modules need tsx's hooks; under tsx they are there. */
function loadTypescript(): Promise<void> {
  typescriptLoader ??= import("tsx/esm/api").then(({ register }) => {
    register();
  });
  return typescriptLoader;
}

/**
 * What each module file was last imported as: its content's hash and the URL. A fresh load
 * imports a file anew only when its content changed, under a URL naming the new content;
 * an unchanged file is taken from Node's module cache. Node never frees an ES module: a
 * reload that imported every file anew would keep every copy, until the heap ran out.
 */
const imports = new Map<string, { hash: string; url: string }>();

/**
 * URLs whose module may hold other bytes than their hash names (the file was written while
 * or just before it was imported): Node keeps what it read under that URL, so it is never
 * imported again, and the next fresh load imports the file anew.
 */
const suspect = new Set<string>();
let retries = 0;

/**
 * How long a file must have been left alone before its import is trusted to hold what was
 * hashed. Checking the hash again after the import is not enough: a file written twice
 * during it (back to the hashed bytes) looks unchanged. Two seconds also covers file
 * systems that keep modification times to the second.
 */
const QUIET_MS = 2_000;

// Read synchronously: a module is a few KB, and at a few hundred modules the promise API's
// open, stat, read and close round trips cost more CPU than the reads themselves.
async function contentHash(file: string): Promise<string> {
  return createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 16);
}

/** Where a module file is imported from, what it held, and when it was read. */
export interface ModuleImport {
  url: string;
  hash: string;
  readAt: number;
}

/**
 * Where to import `file` from (with `query`), and the hash of what it holds now: the last
 * import's URL when the content is the same, or on a first load; else a URL naming the
 * new content. Pass the answer to {@link recordImport} once imported.
 */
export async function moduleUrl(
  file: string,
  query: string,
  fresh: boolean,
): Promise<ModuleImport> {
  const readAt = Date.now();
  const hash = await contentHash(file);
  const last = imports.get(file);
  if (last !== undefined && (last.hash === hash || !fresh)) return { url: last.url, hash, readAt };
  const search = [query, last === undefined ? "" : `content=${hash}`].filter(Boolean).join("&");
  let url = search ? `${pathToFileURL(file).href}?${search}` : pathToFileURL(file).href;
  if (suspect.has(url)) url += `${search ? "&" : "?"}retry=${++retries}`;
  return { url, hash, readAt };
}

/**
 * Records what `file` was imported as. Unless the file was left alone from
 * {@link QUIET_MS} before it was read until now, the import may have read other bytes
 * than were hashed: that URL is never used again, and the next fresh load imports the
 * file anew.
 */
export async function recordImport(file: string, where: ModuleImport): Promise<void> {
  let quiet = false;
  try {
    quiet = statSync(file).mtimeMs < where.readAt - QUIET_MS;
  } catch {}
  const trusted = quiet && (await contentHash(file).catch(() => "")) === where.hash;
  if (!trusted) suspect.add(where.url);
  imports.set(file, { hash: trusted ? where.hash : "", url: where.url });
}

/** How the vetting worker resolves modules: as this process does. */
function vetOptions(): VetOptions {
  return {
    serviceUrl: import.meta.url,
    fromSource: FROM_SOURCE,
    // From `dist/`, Node strips an operator's types itself where it can (kit-resolution.ts):
    // tsx, slow to start, is needed in the worker only where it cannot.
    typescript: FROM_SOURCE || !NODE_STRIPS_TYPES,
  };
}

/** Verdicts begun by {@link prepareOperations}, by file, for the content hashed then. */
let vettedAhead:
  | Promise<Map<string, { url: string; hash: string; verdict: Promise<Verdict> }>>
  | undefined;

/**
 * Begins vetting the operator's modules under `dirs` (those the next load would import),
 * so that the worker starts while the process loads the rest of the service; the next
 * {@link loadOperations} takes each verdict whose file still holds what was vetted.
 * Resolves once the vetting has begun; a vetting begun and not yet taken by a load is not
 * begun again.
 *
 * @example
 * void prepareOperations(operationsDirs(config.operationsDirs)); // then import the app, load
 */
export async function prepareOperations(dirs: string[]): Promise<void> {
  const operator = dirs.filter((dir) => path.resolve(dir) !== path.resolve(DEFAULT_OPERATIONS_DIR));
  if (operator.length === 0 || vettedAhead !== undefined) return;
  vettedAhead = (async () => {
    const jobs: (VetJob & { hash: string })[] = [];
    for (const dir of operator) {
      for (const file of await operationFiles(dir, EXTRA_EXTENSIONS).catch(() => [])) {
        const imported = await moduleUrl(file, OPERATION_QUERY, false).catch(() => undefined);
        if (imported === undefined || imports.get(file)?.url === imported.url) continue;
        jobs.push({ file, url: imported.url, hash: imported.hash });
      }
    }
    const verdicts = vetModules(jobs, vetOptions());
    return new Map(
      jobs.map(({ file, url, hash }) => [
        file,
        { url, hash, verdict: verdicts.get(file) ?? Promise.resolve({}) },
      ]),
    );
  })();
  await vettedAhead.catch(() => undefined); // the load vets anew what this could not
}

/**
 * Imports every operation module under `dirs`, checks them, and returns them sorted by
 * path. Throws {@link OperationLoadError} listing every problem found. `fresh` imports
 * every module whose file changed anew rather than from Node's module cache (a reload).
 * Only the operation files themselves are compared; `_helpers` they import stay cached.
 *
 * @example
 * const operations = await loadOperations(); // from ./operations
 */
export async function loadOperations(
  dirs: string[] = [DEFAULT_OPERATIONS_DIR],
  options: {
    fresh?: boolean;
    /**
     * Told each module file as its import begins, and undefined once it settles: a reload
     * names the one that never ends.
     */
    importing?: (file: string | undefined) => void;
    /** Told each operator module refused by vetting (vet.ts), with the reason. */
    refused?: (file: string, reason: string) => void;
  } = {},
): Promise<AnyOperation[]> {
  const isBuiltIn = (dir: string) => path.resolve(dir) === path.resolve(DEFAULT_OPERATIONS_DIR);
  const operatorDirs = !dirs.every(isBuiltIn);
  // tsx's hooks must be in place before the kit's (hooks registered later run first), and
  // a reload may bring the first `.ts` module: with an operator folder, load tsx up front,
  // unless Node strips types itself (as the vetting worker then does without it).
  if (!FROM_SOURCE && operatorDirs && !NODE_STRIPS_TYPES) await loadTypescript();
  // The built-in modules' `#kit` resolves without the hook from `dist/`; the hook runs in a
  // thread of its own (a second V8 heap), so a process serving only them goes without it.
  if (FROM_SOURCE || operatorDirs) registerKitResolution(import.meta.url, FROM_SOURCE);
  const operations: AnyOperation[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const folders: { dir: string; builtIn: boolean; extensions: string[]; files: string[] }[] = [];
  for (const dir of dirs) {
    const builtIn = isBuiltIn(dir);
    const extensions = builtIn ? [MODULE_EXTENSION] : EXTRA_EXTENSIONS;
    try {
      // A reload from dist/ in a checkout follows the sources (see builtInFiles).
      const fromSources =
        builtIn && options.fresh === true && SOURCE_OPERATIONS_DIR !== undefined
          ? await builtInFiles(dir, SOURCE_OPERATIONS_DIR)
          : undefined;
      if (fromSources?.some((file) => file.endsWith(".ts"))) await loadTypescript();
      folders.push(
        fromSources === undefined
          ? { dir, builtIn, extensions, files: await operationFiles(dir, extensions) }
          : { dir, builtIn, extensions: [MODULE_EXTENSION, ".ts"], files: fromSources },
      );
    } catch (error) {
      problems.push(`${dir}: cannot read the folder: ${(error as Error).message}`);
    }
  }
  // An operator's module not imported before (new, changed, or suspect) is vetted in a
  // worker first; the worker runs while the built-in modules import.
  const urls = new Map<string, ModuleImport | Error>();
  const unvetted: VetJob[] = [];
  const verdicts = new Map<string, Promise<Verdict>>();
  const early = await vettedAhead?.catch(() => undefined);
  vettedAhead = undefined;
  for (const { builtIn, files } of folders) {
    if (builtIn) continue;
    for (const file of files) {
      const imported = await moduleUrl(file, OPERATION_QUERY, options.fresh === true).catch(
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
      urls.set(file, imported);
      if (imported instanceof Error || imports.get(file)?.url === imported.url) continue;
      const ahead = early?.get(file);
      if (ahead?.url === imported.url && ahead.hash === imported.hash) {
        verdicts.set(file, ahead.verdict);
      } else {
        unvetted.push({ file, url: imported.url });
      }
    }
  }
  for (const [file, verdict] of unvetted.length > 0 ? vetModules(unvetted, vetOptions()) : []) {
    verdicts.set(file, verdict);
  }
  for (const { dir, builtIn, extensions, files } of folders) {
    for (const file of files) {
      const base =
        SOURCE_OPERATIONS_DIR !== undefined && file.startsWith(SOURCE_OPERATIONS_DIR)
          ? SOURCE_OPERATIONS_DIR
          : dir;
      const relative = path.relative(base, file);
      const extension = moduleExtension(path.basename(file), extensions) ?? "";
      const where = relative.slice(0, -extension.length).split(path.sep).join("/");
      let module: { default?: unknown };
      let verdict: Verdict = {};
      try {
        const imported = builtIn
          ? await moduleUrl(file, "", options.fresh === true)
          : urls.get(file);
        if (imported === undefined || imported instanceof Error) throw imported;
        options.importing?.(file);
        verdict = (await verdicts.get(file)) ?? {};
        const { refusal, importError } = verdict;
        if (refusal !== undefined || importError !== undefined) {
          options.importing?.(undefined);
          if (refusal !== undefined) {
            options.refused?.(file, refusal);
            problems.push(`${file}: refused: ${refusal}`);
          } else {
            problems.push(`${file}: cannot be imported: ${importError}`);
          }
          continue;
        }
        // Recorded whether it imports or throws: Node keeps a failed import under its URL
        // too, so a fixed file must come back under a new one. Awaited, so the next load
        // never reads a record still being made.
        // What the worker vetted, its types stripped there: not read and stripped again.
        if (verdict.source !== undefined) giveStrippedSource(imported.url, verdict.source);
        const url = imported.url;
        module = (await import(url).finally(() => {
          forgetStrippedSource(url);
          options.importing?.(undefined);
          return recordImport(file, imported);
        })) as { default?: unknown };
      } catch (error) {
        problems.push(`${file}: cannot be imported: ${(error as Error)?.message ?? error}`);
        continue;
      }
      const operation = module.default;
      if (!isOperation(operation)) {
        problems.push(`${file}: the default export is not an operation made by defineOperation`);
        continue;
      }
      const id = `${operation.area}/${operation.name}`;
      const previous = seen.get(id);
      if (previous) problems.push(`${file}: '${id}' is already defined by ${previous}`);
      seen.set(id, file);
      // A built-in module's examples are parsed and run by the test suites on every surface:
      // at start they would only cost CPU and load what its handler loads on first use.
      // An operator's module vetted in the worker was checked there, its examples run.
      const found =
        verdict.problems === undefined
          ? checkOperation(operation, where, builtIn ? "skip" : "run")
          : [...verdict.problems, ...placementProblems(operation, where)];
      for (const problem of found) {
        problems.push(`${file}: ${problem}`);
      }
      if (builtIn) trustOutputsOf(operation);
      operations.push(operation);
    }
  }
  if (problems.length > 0) {
    throw new OperationLoadError(`operations failed to load:\n  ${problems.join("\n  ")}`);
  }
  // Code-point order: for ids ([a-z0-9/-]) the same as localeCompare's, without paging in
  // ICU's collation data.
  return operations.sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));
}

/** An operation's id, `<area>/<name>`: the registry's order. */
function idOf(operation: AnyOperation): string {
  return `${operation.area}/${operation.name}`;
}
