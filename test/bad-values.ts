/**
 * Generated bad values for a parameter, by its kind and bounds: each must make the
 * request a 422 located at that parameter, never a 5xx.
 */

import { BOOLEAN_WORDS } from "../src/kit/booleans.js";
import { Exact } from "../src/kit/decimal.js";
import type { ParamDescription } from "../src/kit/params.js";

export interface BadValue {
  why: string;
  /** Query values for the parameter (several = repeated parameter), to be percent-encoded. */
  values: string[];
  /** The values are already spelled for the query string: send them as they are. */
  raw?: true;
}

/**
 * Spellings that are not valid percent-encoded UTF-8, for every parameter (the parser
 * decodes every value strictly; for text parameters it is what keeps a hash honest).
 */
export const PERCENT_ENCODING_BAD_VALUES: BadValue[] = [
  { why: "lone %", values: ["%"], raw: true },
  { why: "% without hex digits", values: ["%ZZ"], raw: true },
  { why: "% with one hex digit", values: ["a%2"], raw: true },
  { why: "% before a non-hex letter", values: ["%G1"], raw: true },
  { why: "overlong '.' (%C0%AE)", values: ["%C0%AE"], raw: true },
  { why: "overlong NUL (%C0%80)", values: ["%C0%80"], raw: true },
  { why: "overlong '/' in three bytes", values: ["%E0%80%AF"], raw: true },
  { why: "encoded high surrogate", values: ["%ED%A0%80"], raw: true },
  { why: "encoded low surrogate", values: ["%ED%BF%BF"], raw: true },
  { why: "beyond U+10FFFF", values: ["%F4%90%80%80"], raw: true },
  { why: "stray continuation byte", values: ["%80"], raw: true },
  { why: "truncated sequence after NUL", values: ["%00%E2%82"], raw: true },
];

const COMMON: BadValue[] = [
  { why: "empty", values: [""] },
  { why: "whitespace", values: [" "] },
];

function scalarBadValues(param: ParamDescription): BadValue[] {
  switch (param.kind) {
    case "decimal":
      return [
        ...COMMON,
        { why: "NaN", values: ["NaN"] },
        { why: "Infinity", values: ["Infinity"] },
        { why: "-Infinity", values: ["-Infinity"] },
        { why: "hex", values: ["0x10"] },
        { why: "digit separator", values: ["1_000"] },
        { why: "word", values: ["abc"] },
        { why: "two points", values: ["1.2.3"] },
        { why: "bare exponent", values: ["1e"] },
        { why: "padded", values: [" 1"] },
        { why: "huge exponent", values: ["1e999999999"] },
        { why: "tiny exponent", values: ["1e-999999999"] },
        { why: "10k-digit literal", values: ["9".repeat(10_000)] },
        { why: "101-character literal", values: ["1".repeat(101)] },
        ...(param.minimum === undefined
          ? []
          : [{ why: "below minimum", values: [new Exact(param.minimum).minus(1).toFixed()] }]),
      ];
    case "integer":
      return [
        ...COMMON,
        { why: "fraction", values: ["1.5"] },
        { why: "exponent", values: ["1e3"] },
        { why: "hex", values: ["0x10"] },
        { why: "word", values: ["abc"] },
        { why: "NaN", values: ["NaN"] },
        { why: "Infinity", values: ["Infinity"] },
        { why: "30 digits", values: ["9".repeat(30)] },
        { why: "10k digits", values: ["9".repeat(10_000)] },
        { why: "below minimum", values: [String(BigInt(param.min ?? 0) - 1n)] },
        { why: "above maximum", values: [String(BigInt(param.max ?? 0) + 1n)] },
      ];
    case "boolean":
      return [
        ...COMMON,
        { why: "word", values: ["maybe"] },
        { why: "two", values: ["2"] },
        { why: "padded word", values: [" yes"] },
        { why: "prefix of a word", values: ["tru"] },
      ];
    case "enum":
      return [
        ...COMMON,
        { why: "unknown value", values: ["no-such-value"] },
        { why: "__proto__", values: ["__proto__"] },
      ];
    case "string": {
      const { min, max } = param;
      const bad: BadValue[] = [];
      if (min !== undefined && min > 0) bad.push({ why: "empty", values: [""] });
      if (max !== undefined) bad.push({ why: "too long", values: ["x".repeat(max + 1)] });
      return bad;
    }
    case "list":
      return [];
  }
}

/** Bad values for `param`; `valid` is a good value of it, for repetition cases. */
export function badValuesFor(param: ParamDescription, valid: string[]): BadValue[] {
  if (param.kind === "list" && param.item) {
    const max = param.max;
    // Comma-separated items: a comma inside one value is two items, so skip that case.
    const items = [...scalarBadValues(param.item), ...PERCENT_ENCODING_BAD_VALUES].filter(
      (bad) => !bad.values.some((v) => v.includes(",")),
    );
    const bad: BadValue[] = items.map((item) => ({
      why: `item ${item.why}`,
      values: [...(item.raw ? valid.map(encodeURIComponent) : valid), ...item.values],
      ...(item.raw ? { raw: item.raw } : {}),
    }));
    if (max !== undefined) {
      bad.push({
        why: "one item too many",
        values: [
          Array(max + 1)
            .fill(valid[0])
            .join(","),
        ],
      });
    }
    return bad;
  }
  return [
    ...scalarBadValues(param),
    ...PERCENT_ENCODING_BAD_VALUES,
    ...(valid.length === 1
      ? [{ why: "repeated", values: [valid[0] as string, valid[0] as string] }]
      : []),
  ];
}

/**
 * Other spellings of a valid value that must be read as that value: for a boolean, every
 * word Pydantic accepts, in three cases. Empty for other kinds.
 */
export function equivalentSpellings(param: ParamDescription): { raw: string; value: unknown }[] {
  if (param.kind !== "boolean") return [];
  return [...BOOLEAN_WORDS].flatMap(([word, value]) => {
    const title = word.charAt(0).toUpperCase() + word.slice(1);
    return [...new Set([word, word.toUpperCase(), title])].map((raw) => ({ raw, value }));
  });
}

/** The bound keys of a `ctx` (Pydantic's `ge`, `gt`, `le`, `lt`): always JSON numbers. */
export const BOUND_KEYS = ["ge", "gt", "le", "lt"] as const;
