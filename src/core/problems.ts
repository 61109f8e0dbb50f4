/**
 * Turns zod issues into FastAPI/Pydantic v2 problems (`loc`, `msg`, `type`), so clients
 * written against the Pydantic shape keep working. The parameter's kind (decimal,
 * integer, …) chooses the Pydantic type where zod only says "wrong type".
 */
import type { z } from "zod";
import type { Problem } from "../kit/errors.js";
import { describeParam, type ParamDescription } from "../kit/params.js";

type Issue = z.core.$ZodIssue;

const PARSING_BY_KIND: Record<ParamDescription["kind"], { type: string; msg: string }> = {
  decimal: {
    type: "float_parsing",
    msg: "Input should be a valid decimal number, unable to parse string as a number",
  },
  integer: {
    type: "int_parsing",
    msg: "Input should be a valid integer, unable to parse string as an integer",
  },
  boolean: {
    type: "bool_parsing",
    msg: "Input should be a valid boolean, unable to interpret input",
  },
  string: { type: "string_type", msg: "Input should be a valid string" },
  enum: { type: "enum", msg: "Input should be one of the allowed values" },
  list: { type: "list_type", msg: "Input should be a valid list" },
};

/** The parameter description at `path` inside the object schema `input`, if any. */
function paramAt(input: z.ZodObject, path: PropertyKey[]): ParamDescription | undefined {
  const [name, ...rest] = path;
  const schema = typeof name === "string" ? input.shape[name] : undefined;
  if (!schema) return undefined;
  let param: ParamDescription;
  try {
    param = describeParam(schema as z.ZodType);
  } catch {
    // A schema no query parameter has (an object, a record, a nullable): the JSON type names it.
    return undefined;
  }
  for (const _ of rest) {
    if (param.kind !== "list" || !param.item) break;
    param = param.item;
  }
  return param;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return value;
}

const quote = (value: unknown) => `'${String(value)}'`;

function oneOf(values: readonly unknown[]): string {
  const quoted = values.map(quote);
  return quoted.length <= 1
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

function plural(count: number | bigint, word: string): string {
  return `${count} ${word}${count === 1 || count === 1n ? "" : "s"}`;
}

type Description = Omit<Problem, "loc">;

/**
 * A JSON body's wrong type, by the JSON type zod expected: Pydantic's strict-type errors,
 * since a JSON value has a type of its own where a query value is text to parse.
 */
const TYPE_BY_EXPECTED: Record<string, Description> = {
  string: { type: "string_type", msg: "Input should be a valid string" },
  number: { type: "int_type", msg: "Input should be a valid integer" },
  int: { type: "int_type", msg: "Input should be a valid integer" },
  boolean: { type: "bool_type", msg: "Input should be a valid boolean" },
  array: { type: "list_type", msg: "Input should be a valid list" },
  object: { type: "dict_type", msg: "Input should be a valid dictionary" },
  record: { type: "dict_type", msg: "Input should be a valid dictionary" },
};

/** A JSON body's malformed time (see {@link toProblems}'s `json`). */
const DATETIME_PARSING: Description = {
  type: "datetime_parsing",
  msg: "Input should be a valid datetime (RFC 3339: YYYY-MM-DDTHH:MM:SS[.fff] and Z or ±HH:MM)",
};

function bounds(issue: Issue & { code: "too_small" | "too_big" }, actual: unknown): Description {
  const small = issue.code === "too_small";
  const limit = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case "string":
      return small
        ? {
            type: "string_too_short",
            msg: `String should have at least ${plural(limit, "character")}`,
            ctx: { min_length: limit },
          }
        : {
            type: "string_too_long",
            msg: `String should have at most ${plural(limit, "character")}`,
            ctx: { max_length: limit },
          };
    case "array": {
      const length = Array.isArray(actual) ? actual.length : 0;
      return small
        ? {
            type: "too_short",
            msg: `List should have at least ${plural(limit, "item")} after validation, not ${length}`,
            ctx: { field_type: "List", min_length: limit, actual_length: length },
          }
        : {
            type: "too_long",
            msg: `List should have at most ${plural(limit, "item")} after validation, not ${length}`,
            ctx: { field_type: "List", max_length: limit, actual_length: length },
          };
    }
    default: {
      const [type, words, key] = small
        ? inclusive
          ? ["greater_than_equal", "greater than or equal to", "ge"]
          : ["greater_than", "greater than", "gt"]
        : inclusive
          ? ["less_than_equal", "less than or equal to", "le"]
          : ["less_than", "less than", "lt"];
      return {
        type,
        msg: `Input should be ${words} ${String(limit)}`,
        ctx: { [key]: Number(limit) },
      };
    }
  }
}

function describeIssue(
  issue: Issue,
  schema: z.ZodObject,
  input: unknown,
  json: boolean,
): Description {
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      if (value === undefined) return { type: "missing", msg: "Field required" };
      const byType = json ? TYPE_BY_EXPECTED[issue.expected] : undefined;
      if (byType) return byType;
      const param = paramAt(schema, issue.path);
      return param ? PARSING_BY_KIND[param.kind] : { type: "value_error", msg: issue.message };
    }
    case "invalid_format":
      if (json && issue.format === "datetime") return DATETIME_PARSING;
      if (json && issue.format === "regex" && "pattern" in issue) {
        // zod gives the RegExp's text, slashes included; Pydantic the pattern alone.
        const pattern = String(issue.pattern).replace(/^\/(.*)\/[a-z]*$/s, "$1");
        return {
          type: "string_pattern_mismatch",
          msg: `String should match pattern '${pattern}'`,
          ctx: { pattern },
        };
      }
      return { type: "value_error", msg: `Value error, ${issue.message}` };
    case "too_small":
    case "too_big":
      return bounds(issue, value);
    case "invalid_value":
      return {
        type: "enum",
        msg: `Input should be ${oneOf(issue.values)}`,
        ctx: { expected: oneOf(issue.values) },
      };
    case "custom": {
      const params = (issue.params ?? {}) as { type?: string; ctx?: Record<string, unknown> };
      return {
        type: params.type ?? "value_error",
        msg: params.type ? issue.message : `Value error, ${issue.message}`,
        ...(params.ctx ? { ctx: params.ctx } : {}),
      };
    }
    default:
      return { type: "value_error", msg: `Value error, ${issue.message}` };
  }
}

/**
 * Maps every zod issue of `input` against `schema` to a {@link Problem}. The offending
 * value is not echoed: it may be huge, or a string like "NaN" that clients grep for.
 * With `json`, `input` is a JSON body: a wrong type is named by the JSON type expected
 * (`string_type`, `int_type`, `dict_type`, …), a malformed time is `datetime_parsing`
 * and a string off its pattern `string_pattern_mismatch`.
 *
 * @example
 * toProblems(schema.safeParse(input).error.issues, schema, input)
 * // [{ loc: ["numbers", "1"], msg: "Input should be a valid decimal number, …", type: "float_parsing" }]
 */
export function toProblems(
  issues: readonly Issue[],
  schema: z.ZodObject,
  input: unknown,
  options: { json?: boolean } = {},
): Problem[] {
  const json = options.json === true;
  const problems: Problem[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        problems.push({
          loc: [...issue.path.map(String), key],
          msg: "Extra inputs are not permitted",
          type: "extra_forbidden",
        });
      }
      continue;
    }
    const { msg, type, ctx } = describeIssue(issue, schema, input, json);
    problems.push({ loc: issue.path.map(String), msg, type, ...(ctx ? { ctx } : {}) });
  }
  return problems;
}

/** Problems spelled out by {@link summarizeProblems}; the rest are counted. */
const SUMMARIZED_PROBLEMS = 3;

/**
 * The first few problems in one line, for a message: every problem stays in the list a
 * caller sends (10,000 items of a list may all be wrong; a megabyte of message helps nobody).
 *
 * @example
 * summarizeProblems([{ loc: ["a"], msg: "Field required", type: "missing" }]); // "a: Field required"
 */
export function summarizeProblems(problems: readonly Problem[]): string {
  const shown = problems
    .slice(0, SUMMARIZED_PROBLEMS)
    .map((p) => (p.loc.length > 0 ? `${p.loc.join(".")}: ${p.msg}` : p.msg));
  const more = problems.length - shown.length;
  return `${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}

/**
 * Adds the source (`"query"`, `"args"`) in front of each problem's location.
 *
 * @example
 * locate([{ loc: ["a"], msg: "…", type: "missing" }], "query"); // [{ loc: ["query", "a"], … }]
 */
export function locate(problems: Problem[], source: string): Problem[] {
  return problems.map((problem) => ({ ...problem, loc: [source, ...problem.loc] }));
}
