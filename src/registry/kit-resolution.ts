/**
 * Lets an operation module anywhere on disk import the kit by the package's name
 * (`utility-calculation-service/kit`), with no node_modules beside it: a module hook
 * resolves that name as if it were imported from inside this package (Node's
 * self-reference through package.json `exports`), so every module shares the service's
 * own copy of the kit. Under tsx (source tree) it also picks the `ucs-source` condition,
 * which maps the kit to `src/kit/index.ts` instead of the built `dist/`.
 */
import { readFileSync } from "node:fs";
import module from "node:module";

const PACKAGE = "utility-calculation-service";

/** Marks an operator's module for the hook: loaded as ESM even without `"type": "module"`. */
export const OPERATION_QUERY = "ucs-operation";

/** The hook's fallback, for a Node without `module.registerHooks`: run in Node's hooks thread. */
const HOOK = `
import { readFile } from "node:fs/promises";
let parentURL, source;
export function initialize(data) { parentURL = data.parentURL; source = data.source; }
const KIT = /^(?:#kit|${PACKAGE}(?:\\/.*)?)$/;
export async function resolve(specifier, context, nextResolve) {
  if (KIT.test(specifier)) {
    const conditions = source ? [...context.conditions, "ucs-source"] : context.conditions;
    return nextResolve(specifier, { ...context, parentURL, conditions });
  }
  const resolved = await nextResolve(specifier, context);
  // An operator's module is ESM whatever its folder's package.json says (or lacks one).
  if (/[?&]${OPERATION_QUERY}\\b/.test(resolved.url)) {
    const typescript = /\\.m?ts(?:\\?|$)/.test(resolved.url);
    return { ...resolved, format: typescript ? "module-typescript" : "module" };
  }
  return resolved;
}
// Read here, not by a TypeScript loader registered before (tsx): on Node 22+ tsx may load
// such a file as CommonJS, whose require() never sees the resolve hook above. TypeScript
// goes to Node's own type stripping where it has it, else to that loader.
export async function load(url, context, nextLoad) {
  if (/[?&]${OPERATION_QUERY}\\b/.test(url)) {
    const typescript = /\\.m?ts(?:\\?|$)/.test(url);
    if (!typescript || process.features.typescript) {
      const source = await readFile(new URL(url.split("?")[0]), "utf8");
      return { format: typescript ? "module-typescript" : "module", source, shortCircuit: true };
    }
  }
  return nextLoad(url, context);
}
`;

const KIT = new RegExp(`^(?:#kit|${PACKAGE}(?:/.*)?)$`);
const OPERATION = new RegExp(`[?&]${OPERATION_QUERY}\\b`);
const TYPESCRIPT = /\.m?ts(?:\?|$)/;

interface HookContext {
  conditions?: string[];
  parentURL?: string;
  format?: string;
}
interface Resolved {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type RegisterHooks = (hooks: {
  resolve: (
    specifier: string,
    context: HookContext,
    next: (specifier: string, context?: HookContext) => Resolved,
  ) => Resolved;
  load: (
    url: string,
    context: HookContext,
    next: (url: string, context?: HookContext) => unknown,
  ) => unknown;
}) => unknown;

let registered = false;

/** Whether this thread's hook keeps what it stripped of an operator's module (the vetting worker). */
let keepStripped = false;
/** What the hook stripped, by URL (the vetting worker hands it to the serving thread). */
const strippedHere = new Map<string, string>();
/** Sources already stripped of their types, by URL: the next load of that URL takes it. */
const strippedGiven = new Map<string, string>();

/**
 * The JavaScript the hook made of the operator's TypeScript module at `url` in this
 * thread, once (undefined when it did not strip it itself); see {@link registerKitResolution}.
 */
export function takeStrippedSource(url: string): string | undefined {
  const source = strippedHere.get(url);
  strippedHere.delete(url);
  return source;
}

/**
 * Has the next load of `url` take `source` (its module's types already stripped, by the
 * vetting worker, from the bytes it vetted) instead of reading and stripping the file
 * again: the serving thread then never loads the TypeScript parser. Dropped by
 * {@link forgetStrippedSource} once the import settled, taken or not.
 */
export function giveStrippedSource(url: string, source: string): void {
  strippedGiven.set(url, source);
}

export function forgetStrippedSource(url: string): void {
  strippedGiven.delete(url);
}

/** `node:module`'s stripTypeScriptTypes, where Node has it. */
const stripTypes = (module as { stripTypeScriptTypes?: (code: string) => string })
  .stripTypeScriptTypes;

/**
 * Installs the hook once per thread. `fromSource`: the service runs from `src/` (tsx).
 * From `dist/` on a Node that strips types, in-thread (`module.registerHooks`): the
 * thread `module.register` runs its hooks in is a second V8 heap, and every import
 * crosses to it and back twice; at 300 operator modules that cost ~0.7 s of CPU at the
 * start and ~20 MB (the vetting worker has a hooks thread of its own too).
 *
 * @example
 * registerKitResolution(import.meta.url, true);
 */
export function registerKitResolution(
  serviceFileUrl: string,
  fromSource: boolean,
  options: { keepStripped?: boolean } = {},
): void {
  if (registered) return;
  registered = true;
  keepStripped = options.keepStripped === true && typeof stripTypes === "function";
  const registerHooks = (module as { registerHooks?: RegisterHooks }).registerHooks;
  const stripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);
  // With tsx in the thread (sources, or a Node that cannot strip types), in its hooks'
  // thread as before: tsx's in-thread hooks must see an operator's module first there.
  if (typeof registerHooks !== "function" || fromSource || !stripsTypes) {
    module.register(`data:text/javascript,${encodeURIComponent(HOOK)}`, {
      data: { parentURL: serviceFileUrl, source: fromSource },
    });
    return;
  }
  // The kit resolves alike from every module (as from the service): once per specifier
  // and conditions, not once per module (package.json lookups, realpath, at each import).
  const kitResolved = new Map<string, Resolved>();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (KIT.test(specifier)) {
        const key = `${specifier}\0${context.conditions?.join(",") ?? ""}`;
        let resolved = kitResolved.get(key);
        if (resolved === undefined) {
          resolved = nextResolve(specifier, { ...context, parentURL: serviceFileUrl });
          kitResolved.set(key, resolved);
        }
        return { ...resolved, shortCircuit: true };
      }
      const resolved = nextResolve(specifier, context);
      // An operator's module is ESM whatever its folder's package.json says (or lacks one).
      if (OPERATION.test(resolved.url)) {
        return {
          ...resolved,
          format: TYPESCRIPT.test(resolved.url) ? "module-typescript" : "module",
        };
      }
      return resolved;
    },
    // Read here, not by a TypeScript loader (tsx): on Node 22+ tsx may load such a file as
    // CommonJS, whose require() never sees the resolve hook above. TypeScript goes to
    // Node's own type stripping where it has it, else to that loader.
    load(url, context, nextLoad) {
      if (OPERATION.test(url)) {
        const given = strippedGiven.get(url);
        if (given !== undefined) return { format: "module", source: given, shortCircuit: true };
        const typescript = TYPESCRIPT.test(url);
        if (!typescript || stripsTypes) {
          const source = readFileSync(new URL(url.split("?")[0] as string), "utf8");
          // Node refuses to strip types under node_modules: left to it, to refuse alike.
          if (typescript && keepStripped && !url.includes("/node_modules/")) {
            const stripped = (stripTypes as (code: string) => string)(source);
            strippedHere.set(url, stripped);
            return { format: "module", source: stripped, shortCircuit: true };
          }
          return {
            format: typescript ? "module-typescript" : "module",
            source,
            shortCircuit: true,
          };
        }
      }
      return nextLoad(url, context);
    },
  });
}
