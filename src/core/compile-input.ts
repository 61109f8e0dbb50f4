/**
 * Compiled input checks. At registration each operation's zod input schema is turned
 * into one straight-line function: read each parameter, check it with plain comparisons,
 * build the parsed input as one object literal (one shape per operation). It answers the
 * same value zod's `parse` would, or {@link UNSURE} whenever it cannot vouch for the
 * input; then zod runs, and zod alone writes the 422. Zod stays the one source of truth:
 * the code is generated from the schema's own definition, and whatever it does not
 * understand is left to zod (a parameter to its own schema, an object-level refinement
 * to the whole schema).
 */
import type { z } from "zod";
import type { AnyOperation } from "../kit/define.js";
import { FAST_CHECKS, UNSURE } from "../kit/params.js";

export { UNSURE };

/** An operation's compiled check: its parsed input, or {@link UNSURE}. */
export type InputCheck = (input: Record<string, unknown>) => unknown;

type Def = {
  type: string;
  checks?: { _zod: { def: CheckDef; check: (payload: unknown) => unknown } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  shape?: Record<string, z.ZodType>;
  catchall?: unknown;
  format?: string;
  // A getter on zod's definition: a fresh copy of the default on every read.
  defaultValue?: unknown;
};
type CheckDef = {
  check: string;
  when?: unknown;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
};

const ignore = () => {};

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** Everything generated code refers to besides its input: schemas, checks, patterns. */
class Constants {
  readonly values: unknown[] = [];
  ref(value: unknown): string {
    this.values.push(value);
    return `c[${this.values.length - 1}]`;
  }
}

/**
 * Code that checks the value in variable `v`, assigning the parsed value to `out`, or
 * returning UNSURE from the check. Undefined when no straight-line code can be written
 * for this schema (the caller then lets zod parse this parameter).
 */
function valueCode(
  schema: z.ZodType,
  v: string,
  out: string,
  c: Constants,
  fresh: () => string,
): string | undefined {
  const fast = FAST_CHECKS.get(schema);
  if (fast) {
    return `${out} = ${c.ref(fast)}(${v}); if (${out} === U) return U;`;
  }
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  switch (def.type) {
    case "boolean":
      return checks.length === 0
        ? `if (typeof ${v} !== "boolean") return U; ${out} = ${v};`
        : undefined;
    case "enum": {
      const values = Object.values(def.entries ?? {});
      if (checks.length > 0 || values.some((value) => typeof value !== "string")) return undefined;
      const test = values.map((value) => `${v} === ${JSON.stringify(value)}`).join(" || ");
      return `if (!(${test || "false"})) return U; ${out} = ${v};`;
    }
    case "string": {
      // A string format schema (z.email(), z.uuid(), z.iso.date()…) is its own check: zod's.
      if (def.format !== undefined) return undefined;
      const tests = lengthTests(checks, v, c);
      return tests === undefined
        ? undefined
        : `if (typeof ${v} !== "string"${tests}) return U; ${out} = ${v};`;
    }
    case "number": {
      // Integers only: z.int() (safe range) and its bounds.
      if (def.format !== "safeint") return undefined;
      let tests = "";
      for (const check of checks) {
        if (check.check !== "greater_than" && check.check !== "less_than") return undefined;
        if (typeof check.value !== "number") return undefined;
        const op =
          check.check === "greater_than"
            ? check.inclusive
              ? "<"
              : "<="
            : check.inclusive
              ? ">"
              : ">=";
        tests += ` || ${v} ${op} ${check.value}`;
      }
      return `if (typeof ${v} !== "number" || !Number.isSafeInteger(${v})${tests}) return U; ${out} = ${v};`;
    }
    case "array": {
      if (!def.element) return undefined;
      const tests = lengthTests(checks, v, c, "length");
      if (tests === undefined) return undefined;
      const i = fresh();
      const item = fresh();
      const itemOut = fresh();
      const inner = valueCode(def.element, item, itemOut, c, fresh);
      if (inner === undefined) return undefined;
      const list = fresh();
      return (
        `if (!Array.isArray(${v})${tests}) return U;` +
        ` const ${list} = new Array(${v}.length);` +
        ` for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {` +
        ` const ${item} = ${v}[${i}]; let ${itemOut}; ${inner} ${list}[${i}] = ${itemOut}; }` +
        ` ${out} = ${list};`
      );
    }
    case "optional":
    case "default": {
      if (!def.innerType || checks.length > 0) return undefined;
      const inner = valueCode(def.innerType, v, out, c, fresh);
      if (inner === undefined) return undefined;
      const absent =
        def.type === "optional" ? "undefined" : `${c.ref(schema)}._zod.def.defaultValue`;
      return `if (${v} === undefined) { ${out} = ${absent}; } else { ${inner} }`;
    }
    default:
      return undefined;
  }
}

/** ` || …` tests for min/max length and regex checks; undefined for any other check. */
function lengthTests(
  checks: CheckDef[],
  v: string,
  c: Constants,
  allowed: "length" | "string" = "string",
): string | undefined {
  let tests = "";
  for (const check of checks) {
    if (check.check === "min_length" && typeof check.minimum === "number") {
      tests += ` || ${v}.length < ${check.minimum}`;
    } else if (check.check === "max_length" && typeof check.maximum === "number") {
      tests += ` || ${v}.length > ${check.maximum}`;
    } else if (
      allowed === "string" &&
      check.check === "string_format" &&
      check.format === "regex" &&
      check.pattern instanceof RegExp
    ) {
      // As zod tests it: from the start, whatever a global pattern last matched.
      const pattern = c.ref(check.pattern);
      tests += ` || (${pattern}.lastIndex = 0, !${pattern}.test(${v}))`;
    } else {
      return undefined;
    }
  }
  return tests;
}

/**
 * Compiles `schema` (an operation's input object). Answers `undefined` when the object
 * itself has a catch-all or checks other than refinements, which only zod can run.
 *
 * @example
 * const check = compileInput(sum.input);
 * check({ numbers: ["1", "2"] }); // { numbers: [Exact(1), Exact(2)] }
 * check({ numbers: ["x"] }); // UNSURE: zod then writes the 422
 */
export function compileInput(schema: z.ZodObject): InputCheck | undefined {
  const def = defOf(schema);
  if (def.type !== "object" || !def.shape || def.catchall !== undefined) return undefined;
  // Object-level refinements (`.superRefine`) run on the parsed object, as zod runs them
  // once every field passed; any other object check is left to zod.
  const refinements = def.checks ?? [];
  if (refinements.some((check) => check._zod.def.check !== "custom" || check._zod.def.when)) {
    return undefined;
  }
  const c = new Constants();
  let counter = 0;
  const fresh = () => `t${counter++}`;
  const lines: string[] = [];
  const fields: string[] = [];
  for (const [name, param] of Object.entries(def.shape)) {
    const v = fresh();
    const out = fresh();
    lines.push(`const ${v} = input[${JSON.stringify(name)}]; let ${out};`);
    const code = valueCode(param, v, out, c, fresh);
    if (code !== undefined) {
      lines.push(code);
    } else {
      // No straight-line code for this parameter: its own schema checks it.
      const parsed = fresh();
      lines.push(
        `const ${parsed} = ${c.ref(param)}.safeParse(${v}); if (!${parsed}.success) return U; ${out} = ${parsed}.data;`,
      );
    }
    fields.push(`${JSON.stringify(name)}: ${out}`);
  }
  lines.push(`const parsed = { ${fields.join(", ")} };`);
  for (const refinement of refinements) {
    // A refinement that reports an issue (or answers a promise) leaves the input to zod.
    // A promise is left to zod (which refuses it in a synchronous parse), never unhandled.
    const payload = fresh();
    const result = fresh();
    lines.push(
      `const ${payload} = { value: parsed, issues: [] }; const ${result} = ${c.ref(refinement)}._zod.check(${payload});` +
        ` if (${result} instanceof Promise) { ${result}.then(undefined, ${c.ref(ignore)}); return U; }` +
        ` if (${payload}.issues.length > 0) return U;`,
    );
  }
  const body = `return function checkInput(input) {\n${lines.join("\n")}\nreturn parsed;\n};`;
  // Generated from the schema's own definition (names JSON-quoted, bounds numbers).
  const factory = new Function("U", "c", body) as (u: symbol, c: unknown[]) => InputCheck;
  return factory(UNSURE, c.values);
}

const compiled = new WeakMap<AnyOperation, InputCheck>();

/** Answers UNSURE for every input: zod decides everything. */
const zodDecides: InputCheck = () => UNSURE;

/**
 * The compiled check of `operation`, built on first use (gateways call it at
 * registration, so no request pays for compiling).
 */
export function inputCheckOf(operation: AnyOperation): InputCheck {
  let check = compiled.get(operation);
  if (check === undefined) {
    check = compileInput(operation.input) ?? zodDecides;
    compiled.set(operation, check);
  }
  return check;
}
