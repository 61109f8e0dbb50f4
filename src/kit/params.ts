/**
 * Parameter builders for operation input schemas. Each builds a plain zod schema; the
 * gateways read back what kind of parameter it is with {@link describeParam}, so that a
 * query string, a GraphQL argument and an OpenAPI parameter all follow the one schema.
 *
 * Over 300 lines on purpose: the builders sit beside `describeParam`, which reads them back.
 */
import { z } from "zod";
import {
  compareExact,
  DECIMAL_LITERAL,
  Exact,
  MAX_LITERAL_LENGTH,
  MAX_RESULT_DIGITS,
  parseDecimalLiteral,
  plainDigitCount,
} from "./decimal.js";
import { Decimals } from "./decimals.js";

/** What a parameter's fast check answers when it cannot vouch for a value: zod decides. */
export const UNSURE: unique symbol = Symbol("unsure");

/**
 * Checks for parameters whose zod schema runs a function zod cannot show from outside
 * (a transform, a custom check): the same rules, as a plain function that answers the
 * parsed value or {@link UNSURE}. `core/compile-input.ts` builds each operation's input
 * check from these and from the schemas' declared checks.
 */
export const FAST_CHECKS = new WeakMap<z.ZodType, (value: unknown) => unknown>();

/** Metadata `format` that marks a string parameter as a decimal literal. */
export const DECIMAL_FORMAT = "decimal";

interface DecimalOptions {
  description?: string;
  /** Smallest allowed value, inclusive. */
  min?: string;
}

type IssueSink = { issues: { push(issue: z.core.$ZodRawIssue): void } };

function reject(ctx: IssueSink, input: string, type: string, message: string, extra = {}): never {
  ctx.issues.push({ code: "custom", input, message, params: { type, ...extra } });
  return z.NEVER as never;
}

/** A literal whose digits before any exponent are not all zeros (tested without splitting). */
const NONZERO_MANTISSA = /^[^eE]*[1-9]/;

const tooLong = (digits: string) =>
  `Value error, the number needs ${digits} digits in plain notation; the limit is ${MAX_RESULT_DIGITS}`;

/**
 * A decimal number written as a literal (`-1.5`, `.5`, `2.5E-4`), parsed exactly into an
 * {@link Exact}. Empty strings, whitespace, `NaN`, `Infinity`, hex, digit separators,
 * literals over 100 characters and numbers whose plain notation needs more than
 * 10,000 digits are refused.
 *
 * @example
 * const input = z.object({ a: decimal({ description: "The minuend." }) });
 */
export function decimal(options: DecimalOptions = {}) {
  const min = options.min === undefined ? undefined : new Exact(options.min);
  const schema = z
    .string()
    .transform((text, ctx): Exact => {
      const read = readDecimal(text, min);
      return read instanceof Exact
        ? read
        : reject(ctx, text, read.type, read.message, read.extra ?? {});
    })
    .meta({
      format: DECIMAL_FORMAT,
      description: options.description,
      pattern: DECIMAL_LITERAL.source,
      maxLength: MAX_LITERAL_LENGTH,
    });
  if (min !== undefined) decimalMinimums.set(schema, min.toFixed());
  FAST_CHECKS.set(schema, (value) => {
    if (typeof value !== "string") return UNSURE;
    const read = readDecimal(value, min);
    return read instanceof Exact ? read : UNSURE;
  });
  return schema;
}

/** Why a decimal literal is refused, in Pydantic's terms. */
interface DecimalRefusal {
  type: string;
  message: string;
  extra?: object;
}

const NOT_A_NUMBER: DecimalRefusal = {
  type: "float_parsing",
  message: "Input should be a valid decimal number, unable to parse string as a number",
};
const TOO_LONG_LITERAL: DecimalRefusal = {
  type: "string_too_long",
  message: `String should have at most ${MAX_LITERAL_LENGTH} characters`,
  extra: { ctx: { max_length: MAX_LITERAL_LENGTH } },
};
const TOO_MANY_DIGITS: DecimalRefusal = {
  type: "value_error",
  message: tooLong(`more than ${MAX_RESULT_DIGITS}`),
};

/** The rules of {@link decimal}: the value of `text`, or why it is refused. */
function readDecimal(text: string, min: Exact | undefined): Exact | DecimalRefusal {
  let value = parseDecimalLiteral(text);
  if (value === undefined) {
    if (text.length > MAX_LITERAL_LENGTH) return TOO_LONG_LITERAL;
    if (!DECIMAL_LITERAL.test(text)) return NOT_A_NUMBER;
    // Checked on the exponent first: a literal like 1e999999999 must not be expanded.
    // Past decimal.js's own exponent range a literal becomes Infinity or 0: refuse those.
    value = new Exact(text);
    const writtenAsZero = !NONZERO_MANTISSA.test(text);
    if (!value.isFinite() || value.isZero() !== writtenAsZero) return TOO_MANY_DIGITS;
    if (!value.isZero() && Math.abs(value.e) > MAX_RESULT_DIGITS) return TOO_MANY_DIGITS;
    const digits = plainDigitCount(value);
    if (digits > MAX_RESULT_DIGITS)
      return { type: "value_error", message: tooLong(String(digits)) };
  }
  // compareExact, not `lt`: decimal.js's compare copies its argument on every call.
  if (min !== undefined && compareExact(value, min) < 0) {
    return {
      type: "greater_than_equal",
      message: `Input should be greater than or equal to ${min.toFixed()}`,
      extra: { ctx: { ge: min.toNumber() } },
    };
  }
  return value;
}

/** The `min` of each decimal schema that has one, for {@link describeParam}. */
const decimalMinimums = new WeakMap<z.ZodType, string>();

/**
 * An integer within `[min, max]` (safe-integer range by default).
 *
 * @example
 * integer({ min: 1, max: 1000, description: "Root degree." })
 */
export function integer(options: { min?: number; max?: number; description?: string } = {}) {
  // z.int() already bounds itself to the safe range; a second equal bound would report twice.
  let schema = z.int();
  if (options.min !== undefined) schema = schema.min(options.min);
  if (options.max !== undefined) schema = schema.max(options.max);
  return options.description ? schema.describe(options.description) : schema;
}

/**
 * Whether `text` is well-formed UTF-16 (no lone surrogate), so it has a UTF-8 encoding.
 * `String.prototype.isWellFormed`, which Node 20 has and TypeScript's ES2023 lib omits.
 *
 * @example
 * isWellFormed("\uD800"); // false
 */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * Whether `text` has more than `max` code points, counted in place (spreading a 200,000-unit
 * string into an array of characters took ~20 ms) and only as far as `max`.
 */
function codePointsOver(text: string, max: number): boolean {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A surrogate pair is one code point (a lone surrogate counts as one, as in a spread).
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    if (++count > max) return true;
  }
  return false;
}

/** Where the first lone surrogate of `text` is (UTF-16 index), or -1. */
function loneSurrogateAt(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(index + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) index++;
    else return index;
  }
  return -1;
}

/**
 * A string of `min` to `max` characters, counted in Unicode code points (as JSON Schema's
 * `maxLength` counts them), so an emoji is one character, not two UTF-16 units. A string
 * with a lone surrogate (which JSON's `\ud800` escapes can carry) is refused, never hashed
 * or scored as U+FFFD: every surface takes exactly the text it was sent, or refuses it.
 *
 * @example
 * text({ min: 1, max: 10_000, description: "The text to score." })
 */
export function text(options: { min?: number; max: number; description?: string }) {
  const { max } = options;
  let schema = z.string();
  if (options.min !== undefined) schema = schema.min(options.min);
  const checked = schema
    .check((ctx) => {
      if (!isWellFormed(ctx.value)) {
        const at = loneSurrogateAt(ctx.value);
        const code = ctx.value.charCodeAt(at).toString(16).toUpperCase();
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: `Value error, the text holds a lone surrogate (U+${code} at index ${at}), which is not a Unicode character and has no UTF-8 encoding`,
          params: { type: "value_error" },
        });
      }
      // Never longer in code points than in UTF-16 units: count only when it may matter.
      if (ctx.value.length > max && codePointsOver(ctx.value, max)) {
        ctx.issues.push({
          code: "too_big",
          origin: "string",
          maximum: max,
          inclusive: true,
          input: ctx.value,
        });
      }
    })
    .meta({ maxLength: max });
  const described = options.description ? checked.describe(options.description) : checked;
  const minLength = options.min ?? 0;
  // Within `max` UTF-16 units is within `max` code points; longer strings, and lone
  // surrogates, go to zod.
  FAST_CHECKS.set(described, (value) =>
    typeof value === "string" &&
    value.length >= minLength &&
    value.length <= max &&
    isWellFormed(value)
      ? value
      : UNSURE,
  );
  return described;
}

/**
 * A list of `item`, `min` to `max` long. REST accepts repeated and comma-separated values.
 *
 * @example
 * list(decimal(), { min: 1, max: 10_000, description: "The numbers to add." })
 */
export function list<T extends z.ZodType>(
  item: T,
  options: { min: number; max: number; description?: string },
) {
  const schema = z.array(item).min(options.min).max(options.max);
  return options.description ? schema.describe(options.description) : schema;
}

/**
 * A list of `min` to `max` decimal literals (as {@link decimal} takes them), parsed into
 * one compact {@link Decimals} rather than a decimal.js value per number: for operations
 * that take long lists of numbers. Sent and documented exactly as
 * `list(decimal(), options)`.
 *
 * @example
 * decimals({ min: 1, max: 10_000, description: "The numbers to add." })
 */
export function decimals(options: { min: number; max: number; description?: string }) {
  const schema = list(decimal(), options).transform((values) => Decimals.of(values));
  FAST_CHECKS.set(schema, (value) =>
    Array.isArray(value) && value.length >= options.min && value.length <= options.max
      ? (Decimals.read(value, readLongDecimal) ?? UNSURE)
      : UNSURE,
  );
  return schema;
}

/** A literal the fast path leaves (a long exponent, or refused), read by {@link decimal}'s rules. */
function readLongDecimal(text: string): Exact | undefined {
  const read = readDecimal(text, undefined);
  return read instanceof Exact ? read : undefined;
}

/** What a parameter is, as far as the gateways care. */
export type ParamKind = "decimal" | "integer" | "boolean" | "string" | "enum" | "list";

export interface ParamDescription {
  kind: ParamKind;
  /** For `list`: its items. */
  item?: ParamDescription;
  /** For `enum`: the allowed values. */
  values?: string[];
  /** For `integer`: whether it fits GraphQL's 32-bit `Int`. */
  fits32Bits?: boolean;
  /** For `decimal`: its smallest allowed value (inclusive), as a literal. */
  minimum?: string;
  /** For `integer`: its bounds; for `string` and `list`: the bounds of its length. */
  min?: number;
  max?: number;
  required: boolean;
  /** The schema with `optional`/`default` wrappers removed. */
  schema: z.ZodType;
}

/** Length bounds of a string or array schema, read from its checks. */
function lengthBounds(schema: z.ZodType): { min?: number; max?: number } {
  const maxLength = z.globalRegistry.get(schema)?.maxLength;
  const bounds: { min?: number; max?: number } =
    typeof maxLength === "number" ? { max: maxLength } : {};
  for (const check of schema._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string; minimum?: number; maximum?: number };
    if (def.check === "min_length") bounds.min = def.minimum;
    if (def.check === "max_length") bounds.max = def.maximum;
  }
  return bounds;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * Reads back what kind of parameter a schema built with these helpers (or plain zod
 * `string`, `boolean`, `enum`) is. Throws for a schema the gateways cannot carry.
 */
export function describeParam(schema: z.ZodType): ParamDescription {
  let inner = schema;
  let required = true;
  for (;;) {
    const def = inner._zod.def as { type: string; innerType?: z.ZodType };
    if ((def.type === "optional" || def.type === "default") && def.innerType) {
      required = false;
      inner = def.innerType;
    } else break;
  }
  const def = inner._zod.def as {
    type: string;
    element?: z.ZodType;
    entries?: object;
    in?: z.ZodType;
  };
  const meta = z.globalRegistry.get(inner);
  if (meta?.format === DECIMAL_FORMAT) {
    const minimum = decimalMinimums.get(inner);
    return {
      kind: "decimal",
      ...(minimum === undefined ? {} : { minimum }),
      required,
      schema: inner,
    };
  }
  switch (def.type) {
    case "pipe":
      // A parameter read into another form ({@link decimals}): sent as what the pipe reads.
      if (def.in) return { ...describeParam(def.in), required, schema: inner };
      break;
    case "string":
      return { kind: "string", ...lengthBounds(inner), required, schema: inner };
    case "boolean":
      return { kind: "boolean", required, schema: inner };
    case "number": {
      const number = inner as z.ZodNumber;
      if (!number.isInt) break;
      const fits32Bits =
        (number.minValue ?? -Infinity) >= INT32_MIN && (number.maxValue ?? Infinity) <= INT32_MAX;
      return {
        kind: "integer",
        fits32Bits,
        min: number.minValue ?? undefined,
        max: number.maxValue ?? undefined,
        required,
        schema: inner,
      };
    }
    case "enum":
      return {
        kind: "enum",
        values: Object.values(def.entries ?? {}).map(String),
        required,
        schema: inner,
      };
    case "array":
      if (def.element) {
        return {
          kind: "list",
          item: describeParam(def.element),
          ...lengthBounds(inner),
          required,
          schema: inner,
        };
      }
  }
  throw new TypeError(`unsupported parameter schema type '${def.type}'`);
}
