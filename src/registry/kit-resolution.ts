/**
 * Lets an operation module anywhere on disk import the kit by the package's name
 * (`utility-calculation-service/kit`), with no node_modules beside it: a module hook
 * resolves that name as if it were imported from inside this package (Node's
 * self-reference through package.json `exports`), so every module shares the service's
 * own copy of the kit. Under tsx (source tree) it also picks the `ucs-source` condition,
 * which maps the kit to `src/kit/index.ts` instead of the built `dist/`.
 */
import { register } from "node:module";

const PACKAGE = "utility-calculation-service";

/** Marks an operator's module for the hook: loaded as ESM even without `"type": "module"`. */
export const OPERATION_QUERY = "ucs-operation";

/** Runs in Node's hooks thread; plain JavaScript, so it needs no TypeScript loader there. */
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

let registered = false;

/**
 * Installs the hook once per process. `fromSource`: the service runs from `src/` (tsx).
 *
 * @example
 * registerKitResolution(import.meta.url, true);
 */
export function registerKitResolution(serviceFileUrl: string, fromSource: boolean): void {
  if (registered) return;
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, {
    data: { parentURL: serviceFileUrl, source: fromSource },
  });
}
