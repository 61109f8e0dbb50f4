/**
 * Turns a query string into the typed input an operation's schema expects, following
 * the schema itself: lists may be repeated and/or comma-separated, integers must be
 * `-?[0-9]+`, booleans `true`/`false`/`1`/`0`. No `z.coerce`: a value that does not
 * convert is passed on as the raw string, so the schema reports it with its own type.
 *
 * Values are percent-decoded strictly: a `%` not followed by two hex digits, or bytes that
 * are not valid UTF-8 (overlong forms, encoded surrogates), make the value a 422 at its
 * parameter rather than text silently replaced with U+FFFD.
 */

import { parseBoolean } from "../kit/booleans.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { describeParam, isWellFormed, type ParamDescription } from "../kit/params.js";

/** A value kept undecoded because it is not valid percent-encoded UTF-8. */
export interface MalformedValue {
  /** The parameter's name (decoded; undecoded when the name itself is malformed). */
  name: string;
  /** Its position among that parameter's values. */
  index: number;
}

/**
 * Every value of every parameter, in order, by name. A Map, so any name (`__proto__`,
 * `constructor`) is just a name, and so each request's parameters are not added one by one
 * to an object in V8's slow dictionary mode, as a null-prototype object's are.
 */
export class QueryValues extends Map<string, string[]> {
  /** The query had more than {@link MAX_QUERY_PAIRS} pairs; the rest were not read. */
  truncated = false;
  /** Names or values kept as sent because they are not valid percent-encoded UTF-8. */
  malformed: MalformedValue[] | undefined = undefined;

  /** Appends `value` to `name`'s values; answers its index among them. */
  add(name: string, value: string): number {
    const list = this.get(name);
    if (list) return list.push(value) - 1;
    this.set(name, [value]);
    return 0;
  }

  isMalformed(name: string, index: number): boolean {
    if (this.malformed === undefined) return false;
    for (const entry of this.malformed)
      if (entry.name === name && entry.index === index) return true;
    return false;
  }

  markMalformed(name: string, index: number): void {
    if (this.malformed === undefined) this.malformed = [{ name, index }];
    else this.malformed.push({ name, index });
  }
}

/** Most parameters one request may carry: a 10,000-item list sent as repeats, and spare. */
export const MAX_QUERY_PAIRS = 10_100;

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;

/** What a slice of the query holds that decoding must handle (bits, 0: nothing). */
const HAS_PLUS = 1;
const HAS_PERCENT = 2;
const HAS_NON_ASCII = 4;

/**
 * Form-decodes `raw`: `+` is a space, `%XX` a byte, the bytes strict UTF-8. Undefined when
 * that fails. `marks` says what `raw` holds; with none, `raw` is returned as it is.
 */
function decode(raw: string, marks: number): string | undefined {
  if (marks === 0) return raw;
  let text = (marks & HAS_PLUS) !== 0 ? raw.replaceAll("+", " ") : raw;
  if ((marks & HAS_PERCENT) !== 0) {
    try {
      // Throws on a `%` without two hex digits and on bytes that are not UTF-8 (RFC 3629).
      text = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  // Characters sent unescaped (only possible in-process: Node refuses raw non-ASCII bytes in
  // a request line) must be well-formed UTF-16, so that they have a UTF-8 encoding.
  if ((marks & HAS_NON_ASCII) !== 0 && !isWellFormed(text)) return undefined;
  return text;
}

/** {@link decode} for a slice whose marks are not known yet. */
export function decodeQueryComponent(raw: string): string | undefined {
  let marks = 0;
  for (let index = 0; index < raw.length; index++) marks |= markOf(raw.charCodeAt(index));
  return decode(raw, marks);
}

function markOf(code: number): number {
  return code === PLUS
    ? HAS_PLUS
    : code === PERCENT
      ? HAS_PERCENT
      : code > 0x7f
        ? HAS_NON_ASCII
        : 0;
}

/**
 * Splits a raw query string (without `?`) into its values in one pass, decoding `+` and
 * percent escapes as forms do, and only in the names and values that hold any. A name or
 * value that does not decode is kept as sent and listed in `malformed`; the caller reports
 * it. Stops at {@link MAX_QUERY_PAIRS} and marks the result `truncated`. Fastify's
 * `querystringParser`, so a query is parsed once per request.
 *
 * @example
 * parseQueryString("numbers=1,2&numbers=3"); // Map { numbers: ["1,2", "3"] }
 * parseQueryString("text=%ZZ").malformed; // [{ name: "text", index: 0 }]
 */
export function parseQueryString(query: string): QueryValues {
  const values = new QueryValues();
  const length = query.length;
  let pairs = 0;
  let start = 0;
  let equals = -1;
  let nameMarks = 0;
  let valueMarks = 0;
  for (let index = 0; index <= length; index++) {
    const code = index < length ? query.charCodeAt(index) : AMPERSAND;
    if (code === AMPERSAND) {
      if (index > start) {
        if (++pairs > MAX_QUERY_PAIRS) {
          values.truncated = true;
          return values;
        }
        const nameEnd = equals === -1 ? index : equals;
        const rawName = query.slice(start, nameEnd);
        const rawValue = equals === -1 ? "" : query.slice(equals + 1, index);
        const name = decode(rawName, nameMarks);
        const value = decode(rawValue, valueMarks);
        if (name === undefined) {
          values.markMalformed(rawName, values.add(rawName, rawValue));
        } else if (value === undefined) {
          values.markMalformed(name, values.add(name, rawValue));
        } else {
          values.add(name, value);
        }
      }
      start = index + 1;
      equals = -1;
      nameMarks = 0;
      valueMarks = 0;
    } else if (code === EQUALS && equals === -1) {
      equals = index;
    } else if (code === PLUS || code === PERCENT || code > 0x7f) {
      if (equals === -1) nameMarks |= markOf(code);
      else valueMarks |= markOf(code);
    }
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

const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/**
 * The 422 entry for a value that is not valid percent-encoded UTF-8: what is wrong, and
 * where the operation takes arbitrary bytes (a `<name>Encoding` with `hex`), how to send them.
 */
function malformedProblem(plan: QueryPlan, name: string, loc: string[], raw: string): Problem {
  const badEscape = BAD_ESCAPE.exec(raw);
  const reason = badEscape
    ? `'%' at index ${badEscape.index} is not followed by two hexadecimal digits (a literal '%' is sent as %25)`
    : "its percent-decoded bytes are not valid UTF-8 (overlong forms and encoded surrogates are refused, never replaced)";
  const encodings = plan.get(`${name}Encoding`)?.values ?? [];
  const hint = encodings.includes("hex")
    ? `; to send bytes that are not UTF-8 text, use ${name}Encoding=hex${encodings.includes("base64") ? ` or ${name}Encoding=base64` : ""}`
    : "";
  return {
    loc,
    msg: `Value error, the value is not valid percent-encoded UTF-8: ${reason}${hint}`,
    type: "value_error",
  };
}

/** Pushes the comma-separated items of `value` onto `items`, converted. */
function pushItems(items: unknown[], value: string, item: ParamDescription): void {
  let start = 0;
  for (let comma = value.indexOf(","); comma !== -1; comma = value.indexOf(",", start)) {
    items.push(convert(value.slice(start, comma), item));
    start = comma + 1;
  }
  items.push(convert(start === 0 ? value : value.slice(start), item));
}

/**
 * The items of a value kept undecoded: each comma-separated piece decoded on its own (a
 * comma is ASCII, so no valid UTF-8 sequence spans one), the pieces that fail reported at
 * their index and passed on as sent.
 */
function pushMalformedItems(
  items: unknown[],
  raw: string,
  item: ParamDescription,
  report: (index: number, piece: string) => void,
): void {
  let start = 0;
  for (;;) {
    const comma = raw.indexOf(",", start);
    const piece = comma === -1 ? raw.slice(start) : raw.slice(start, comma);
    const decoded = decodeQueryComponent(piece);
    if (decoded === undefined) {
      report(items.length, piece);
      items.push(piece);
    } else {
      // `%2C` decodes to a comma, which separates items too.
      pushItems(items, decoded, item);
    }
    if (comma === -1) return;
    start = comma + 1;
  }
}

/**
 * Builds the operation's input object from query values. Unknown and repeated scalar
 * parameters, and values that are not valid percent-encoded UTF-8, come back as problems,
 * to be reported with the schema's own.
 *
 * @example
 * toInput(planFor(sum), parseQueryString("numbers=1,2&numbers=3")); // { input: { numbers: ["1","2","3"] }, problems: [] }
 */
export function toInput(
  plan: QueryPlan,
  values: QueryValues,
): { input: Record<string, unknown>; problems: Problem[] } {
  const input: Record<string, unknown> = {};
  const problems: Problem[] = [];
  for (const [name, raw] of values) {
    const param = plan.get(name);
    if (!param) {
      problems.push({
        loc: [name],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
      });
    } else if (param.kind === "list" && param.item) {
      const item = param.item;
      const items: unknown[] = [];
      for (let index = 0; index < raw.length; index++) {
        const value = raw[index] as string;
        if (values.isMalformed(name, index)) {
          pushMalformedItems(items, value, item, (at, piece) =>
            problems.push(malformedProblem(plan, name, [name, String(at)], piece)),
          );
        } else {
          pushItems(items, value, item);
        }
      }
      input[name] = items;
    } else {
      if (raw.length > 1) {
        problems.push({
          loc: [name],
          msg: `Value error, the parameter must be given once, not ${raw.length} times`,
          type: "value_error",
        });
      }
      if (values.isMalformed(name, 0)) {
        problems.push(malformedProblem(plan, name, [name], raw[0] as string));
      }
      // The first value is still checked, so the answer is not also "Field required".
      input[name] = convert(raw[0] as string, param);
    }
  }
  return { input, problems };
}
