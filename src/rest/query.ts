/**
 * Turns a query string into the typed input an operation's schema expects, following
 * the schema itself: lists may be repeated and/or comma-separated, integers must be
 * `-?[0-9]+`, booleans `true`/`false`/`1`/`0`. No `z.coerce`: a value that does not
 * convert is passed on as the raw string, so the schema reports it with its own type.
 */

import { parseBoolean } from "../kit/booleans.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { describeParam, type ParamDescription } from "../kit/params.js";

/** Set on parsed values when the query had more than {@link MAX_QUERY_PAIRS} pairs. */
export const TRUNCATED: unique symbol = Symbol("query truncated");

/** Every value of every parameter, in order. Null prototype: `__proto__` is just a name. */
export type QueryValues = Record<string, string[]> & { [TRUNCATED]?: true };

/** Most parameters one request may carry: a 10,000-item list sent as repeats, and spare. */
export const MAX_QUERY_PAIRS = 10_100;

/**
 * Splits a raw query string (without `?`) into its values, decoding `+` and percent
 * escapes as forms do. Stops at {@link MAX_QUERY_PAIRS} and marks the result
 * {@link TRUNCATED}; the caller reports the excess. Fastify's `querystringParser`, so a
 * query is parsed once per request.
 *
 * @example
 * parseQueryString("numbers=1,2&numbers=3"); // { numbers: ["1,2", "3"] }
 */
export function parseQueryString(query: string): QueryValues {
  const values: QueryValues = Object.create(null);
  let pairs = 0;
  for (const [name, value] of new URLSearchParams(query)) {
    if (++pairs > MAX_QUERY_PAIRS) {
      Object.defineProperty(values, TRUNCATED, { value: true });
      return values;
    }
    const list = values[name];
    if (list) list.push(value);
    else values[name] = [value];
  }
  return values;
}

const INTEGER_LITERAL = /^-?[0-9]+$/;

function convert(raw: string, param: ParamDescription): unknown {
  switch (param.kind) {
    case "integer":
      return INTEGER_LITERAL.test(raw) ? Number(raw) : raw;
    case "boolean":
      return parseBoolean(raw) ?? raw;
    default:
      return raw;
  }
}

/** What the adapter knows about one operation's parameters, computed once. */
export type QueryPlan = Map<string, ParamDescription>;

export function planFor(operation: AnyOperation): QueryPlan {
  return new Map(
    Object.entries(operation.input.shape).map(([name, schema]) => [name, describeParam(schema)]),
  );
}

/**
 * Builds the operation's input object from query values. Unknown and repeated scalar
 * parameters come back as problems, to be reported with the schema's own.
 *
 * @example
 * toInput(planFor(sum), { numbers: ["1,2", "3"] }); // { input: { numbers: ["1","2","3"] }, problems: [] }
 */
export function toInput(
  plan: QueryPlan,
  values: QueryValues,
): { input: Record<string, unknown>; problems: Problem[] } {
  const input: Record<string, unknown> = {};
  const problems: Problem[] = [];
  for (const name of Object.keys(values)) {
    const raw = values[name] as string[];
    const param = plan.get(name);
    if (!param) {
      problems.push({
        loc: [name],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
      });
    } else if (param.kind === "list" && param.item) {
      const item = param.item;
      input[name] = raw.flatMap((value) => value.split(",")).map((value) => convert(value, item));
    } else {
      if (raw.length > 1) {
        problems.push({
          loc: [name],
          msg: `Value error, the parameter must be given once, not ${raw.length} times`,
          type: "value_error",
        });
      }
      // The first value is still checked, so the answer is not also "Field required".
      input[name] = convert(raw[0] as string, param);
    }
  }
  return { input, problems };
}
