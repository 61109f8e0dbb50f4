/**
 * fast-check arbitraries derived from the OpenAPI document: each operation's parameters
 * are read from `paths[…].get.parameters` (type, format, pattern, bounds, enum, items,
 * required) and nothing else. Requests are built in two steps:
 *
 * 1. *values*: the decoded text of every parameter (`Values`), valid per its schema;
 * 2. *spelling*: a query string that decodes to exactly those values, spelled in one of the
 *    many ways a strict form decoder accepts (`+` or `%20`, `%31` for `1`, lowercase escapes,
 *    raw or escaped UTF-8, list items repeated or comma-joined…).
 *
 * Invalid requests are valid ones with one to three {@link Mutation}s applied: wrong types,
 * out-of-range integers, oversized strings and lists, empty values, missing, duplicated and
 * unknown parameters, and percent-encoding oddities: for every parameter, text included,
 * spellings that are not valid percent-encoded UTF-8 ({@link MALFORMED_SPELLINGS}).
 */
import fc from "fast-check";

type Json = Record<string, unknown>;

/** The subset of JSON Schema that parameter schemas use. */
export interface JsonSchema {
  type?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/** What a parameter is, read from its schema alone. */
export type ParamKind = "decimal" | "integer" | "boolean" | "enum" | "pattern" | "text" | "list";

export interface ParamSpec {
  name: string;
  required: boolean;
  schema: JsonSchema;
  kind: ParamKind;
  /** For lists: the item's kind. */
  itemKind?: ParamKind;
  /** The value of the parameter's first documented example, if any. */
  example?: unknown;
}

export interface OperationSpec {
  path: string;
  operationId: string;
  params: ParamSpec[];
}

/** Decoded values of a request: one entry per parameter sent; a scalar has one value. */
export type Values = Record<string, string[]>;

function kindOf(schema: JsonSchema): ParamKind {
  if (schema.type === "array") return "list";
  if (schema.type === "integer") return "integer";
  if (schema.type === "boolean") return "boolean";
  if (schema.type === "string") {
    if (schema.format === "decimal") return "decimal";
    if (schema.enum) return "enum";
    if (schema.pattern) return "pattern";
    return "text";
  }
  throw new Error(`no generator for a parameter schema of type '${schema.type}'`);
}

/**
 * Whether a documented path is an operation's, `/v1/<area>/<name>`: not `/v1/me` nor the
 * admin API, which the document states too and which have tests of their own.
 */
export function isOperationPath(path: string): boolean {
  return /^\/v1\/[^/]+\/./.test(path);
}

/** Every operation of the document (its `GET`s), with its query parameters. */
export function operationsOf(doc: Json): OperationSpec[] {
  const paths = doc.paths as Record<string, { get?: Json }>;
  return Object.entries(paths).flatMap(([path, item]) => {
    const get = item.get;
    if (!get || !isOperationPath(path)) return [];
    const params = ((get.parameters ?? []) as Json[]).map((raw): ParamSpec => {
      if (raw.in !== "query") throw new Error(`${path}: parameter in '${String(raw.in)}'`);
      const schema = raw.schema as JsonSchema;
      const kind = kindOf(schema);
      const examples = Object.values((raw.examples ?? {}) as Record<string, { value?: unknown }>);
      return {
        ...(examples[0] ? { example: examples[0].value } : {}),
        name: String(raw.name),
        required: raw.required === true,
        schema,
        kind,
        ...(kind === "list" ? { itemKind: kindOf(schema.items ?? {}) } : {}),
      };
    });
    return [{ path, operationId: String(get.operationId), params }];
  });
}

/** Length in code points, as JSON Schema counts `minLength`/`maxLength`. */
export const codePoints = (text: string) => [...text].length;

// ---------------------------------------------------------------------------------------
// Valid values, by schema

const DIGITS = "0123456789".split("");
const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...DIGITS), minLength, maxLength });

/**
 * Decimal literals matching the document's `pattern`, within `maxLength`. Exponents stay
 * within ±9,000 so that, with at most 40 mantissa digits, every literal is inside the
 * magnitude limit the README states (1e-10000 to 1e10000, 10,000 digits in plain notation),
 * which a string schema cannot express.
 */
export function decimalArb(schema: JsonSchema): fc.Arbitrary<string> {
  const pattern = new RegExp(schema.pattern ?? ".*", "u");
  const maxLength = schema.maxLength ?? 100;
  const mantissa = fc.oneof(
    digits(1, 40),
    digits(1, 40).map((d) => `${d}.`),
    fc.tuple(digits(1, 30), digits(1, 30)).map(([i, f]) => `${i}.${f}`),
    digits(1, 40).map((f) => `.${f}`),
  );
  const exponentValue = fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 30 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 9000 }) },
  );
  const exponent = fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom("e", "E"),
          fc.constantFrom("", "+", "-"),
          fc.constantFrom("", "0", "00"),
          exponentValue,
        )
        .map(([e, sign, zeros, value]) => `${e}${sign}${zeros}${value}`),
    },
  );
  const literal = fc
    .tuple(fc.constantFrom("", "", "-", "+"), mantissa, exponent)
    .map(([sign, m, e]) => `${sign}${m}${e}`);
  const boundary = fc.constantFrom(
    "0",
    "-0",
    "+0",
    "0.0",
    ".0",
    "0.",
    "0e0",
    "-0e-0",
    "1e9000",
    "-1e-9000",
    // Zero is zero whatever its exponent.
    "0e99999999999999999999",
    "-0.0E-99999999999999999999",
    `1${"0".repeat(maxLength - 1)}`,
    `-${"9".repeat(maxLength - 1)}`,
    `.${"0".repeat(maxLength - 2)}1`,
  );
  return fc
    .oneof({ weight: 9, arbitrary: literal }, { weight: 1, arbitrary: boundary })
    .map((s) => {
      // A generator bug, not a finding: every literal must be valid per the document.
      if (s.length > maxLength || !pattern.test(s)) throw new Error(`bad decimal generated: ${s}`);
      return s;
    });
}

/** Integers in `[minimum, maximum]`, spelled plainly, with leading zeros, or as `-0`. */
export function integerArb(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  const nearZero = { min: Math.max(min, -1000), max: Math.min(max, 1000) };
  const value = fc.oneof(
    ...(nearZero.min <= nearZero.max ? [{ weight: 4, arbitrary: fc.integer(nearZero) }] : []),
    { weight: 3, arbitrary: fc.integer({ min, max }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(min, max, Math.min(min + 1, max), Math.max(max - 1, min)),
    },
  );
  return fc
    .tuple(value, fc.constantFrom("plain", "plain", "plain", "zeros", "minus-zero"))
    .map(([n, spelling]) => {
      if (spelling === "zeros") return n < 0 ? `-00${-n}` : `00${n}`;
      if (spelling === "minus-zero" && n === 0) return "-0";
      return String(n);
    });
}

/** The contract's boolean spellings (section 1: Pydantic's), accepted in any case. */
const BOOLEAN_WORDS = ["true", "false", "1", "0", "yes", "no", "on", "off", "y", "n", "t", "f"];
const BOOLEAN_SPELLINGS = BOOLEAN_WORDS.flatMap((word) => [
  word,
  word.toUpperCase(),
  word.charAt(0).toUpperCase() + word.slice(1),
]);

/** Words that make plausible text: sentiment entries, negators, case styles, punctuation. */
const WORDS = [
  "good",
  "bad",
  "not",
  "no",
  "never",
  "don't",
  "love",
  "hate",
  "problem",
  "does not work",
  "cool stuff",
  "well-being",
  "I",
  "this",
  "is",
  "really",
  "helloWorld",
  "HelloWorld",
  "hello_world",
  "HELLO_WORLD",
  "hello-world",
  "Hello-World",
  "hello.world",
  "hello/world",
  "parseHTTPResponse",
  "version2Update",
  "Σίσυφος",
  "straße",
  "你好",
  "😀",
  "123",
  "!",
  ".",
  ",",
  "…",
];

/** Characters that stress decoding: each has several spellings (see {@link spell}). */
const AWKWARD = ["\uFFFD", "%", "+", " ", "&", "=", ",", "#", "?", "\0", "\t", "é", "😀", "\u200B"];

/**
 * Free text of `minLength` to `maxLength` code points: printable ASCII, any code point
 * (never a lone surrogate: a URL cannot carry one), words, awkward characters, and the
 * length bounds themselves (one character repeated, astral or not).
 */
export function textArb(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 1000;
  const short = Math.min(max, 40);
  const fits = (s: string) => {
    const length = codePoints(s);
    return length >= min && length <= max;
  };
  const boundaryChars = max <= 10_000 ? ["x", "é", "😀", "\uFFFD", " "] : ["x", "a"];
  const boundaryLengths = [...new Set([Math.max(min, 1), max])].filter((n) => n >= min && n <= max);
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: short }) },
      { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: short }) },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: Math.min(short, 10) }) },
      {
        weight: 3,
        arbitrary: fc
          .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(" ", " ", "", ", ", ". ")), {
            maxLength: 12,
          })
          .map((parts) => parts.map(([word, gap]) => word + gap).join("")),
      },
      { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...AWKWARD), maxLength: short }) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...boundaryChars), fc.constantFrom(...boundaryLengths))
          .map(([char, length]) => char.repeat(length)),
      },
    )
    .filter(fits);
}

/** Strings matching `pattern`, within the length bounds. */
export function patternArb(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  return fc
    .stringMatching(new RegExp(schema.pattern ?? ".*", "u"))
    .filter((s) => codePoints(s) >= min && codePoints(s) <= max);
}

/** A valid value (decoded text) of a scalar schema. */
export function scalarArb(schema: JsonSchema): fc.Arbitrary<string> {
  switch (kindOf(schema)) {
    case "decimal":
      return decimalArb(schema);
    case "integer":
      return integerArb(schema);
    case "boolean":
      return fc.constantFrom(...BOOLEAN_SPELLINGS);
    case "enum":
      return fc.constantFrom(...(schema.enum ?? []).map(String));
    case "pattern":
      return patternArb(schema);
    case "text":
      return textArb(schema);
    case "list":
      throw new Error("a list is not a scalar");
  }
}

/**
 * `count` list items: mostly a few, sometimes exactly `maxItems` (cycling a few generated
 * items, so a 10,000-item list costs little to generate). A comma splits items in a URL,
 * so an item never holds one.
 */
export function listArb(
  schema: JsonSchema,
  item: fc.Arbitrary<string> = scalarArb(schema.items ?? {}),
): fc.Arbitrary<string[]> {
  const min = schema.minItems ?? 0;
  const max = schema.maxItems ?? 100;
  const noComma = item.filter((value) => !value.includes(","));
  const few = fc.array(noComma, { minLength: min, maxLength: Math.min(max, 12) });
  const full = fc
    .tuple(fc.array(noComma, { minLength: 1, maxLength: 4 }), fc.constantFrom(max, min))
    .map(([seed, length]) => Array.from({ length }, (_, i) => seed[i % seed.length] as string));
  return fc.oneof({ weight: 12, arbitrary: few }, { weight: 1, arbitrary: full });
}

/** Valid values of one parameter. */
export function paramValuesArb(param: ParamSpec): fc.Arbitrary<string[]> {
  return param.kind === "list" ? listArb(param.schema) : scalarArb(param.schema).map((v) => [v]);
}

/** Valid values for a whole request: required parameters always, optional ones often. */
export function valuesArb(
  op: OperationSpec,
  overrides: Record<string, fc.Arbitrary<string[]>> = {},
): fc.Arbitrary<Values> {
  const entries = op.params.map((param) => {
    const arb = overrides[param.name] ?? paramValuesArb(param);
    return param.required
      ? arb
      : fc.option(arb, { nil: undefined, freq: 3 }).map((value) => value ?? null);
  });
  return fc.tuple(...entries).map((list) => {
    const values: Values = {};
    for (const [index, param] of op.params.entries()) {
      const value = list[index];
      if (value !== null && value !== undefined) values[param.name] = value;
    }
    return values;
  });
}

// ---------------------------------------------------------------------------------------
// Spelling: values → query string

/** A small deterministic PRNG (mulberry32), so one fast-check integer drives all choices. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, options: readonly T[]): T =>
  options[Math.floor(random() * options.length)] as T;

const hex = (byte: number, random: Random) => {
  const text = byte.toString(16).padStart(2, "0");
  return `%${random() < 0.8 ? text.toUpperCase() : text}`;
};
const percentEncode = (text: string, random: Random) =>
  [...Buffer.from(text, "utf8")].map((byte) => hex(byte, random)).join("");

/** How each ASCII character may be spelled: 0 unreserved, 1 safe raw in a value, 2 escaped. */
const ASCII_CLASS = Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  if (/[A-Za-z0-9\-._~]/.test(char)) return 0;
  // Never raw: `&`, `=`, `+`, `#`, `%`, space, controls and what a URL must escape.
  if (/[/?:@!$'()*;,]/.test(char)) return 1;
  return 2;
});
/**
 * The spellings of U+FFFD itself: its UTF-8 escaped, or raw (sent as UTF-8 by the client).
 * Bytes a lenient decoder would turn into U+FFFD (`%C0%AF`, `%ED%A0%80`, `%80`…) are not
 * spellings of anything: the service refuses them (see {@link MALFORMED_SPELLINGS}).
 */
const REPLACEMENT_SPELLINGS = ["%EF%BF%BD", "%ef%bf%bd", "\uFFFD"];
const REPLACEMENT = 0xfffd;

/**
 * One spelling of `text` in a query string, chosen by `random`, that a form decoder
 * (`URLSearchParams`) turns back into exactly `text`.
 *
 * @example
 * spell("a b+%", prng(1)); // e.g. "a+b%2B%" or "%61%20b%2b%25"
 */
export function spell(text: string, random: Random): string {
  let out = "";
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) as number;
    const width = code > 0xffff ? 2 : 1;
    if (code === REPLACEMENT) {
      out += pick(random, REPLACEMENT_SPELLINGS);
      index += 1;
      continue;
    }
    const char = text.slice(index, index + width);
    if (code === 0x20) {
      out += random() < 0.5 ? "+" : "%20";
    } else if (code === 0x25) {
      // A `%` is always escaped: a raw one not followed by two hex digits is refused.
      out += "%25";
    } else if (code < 0x80) {
      const kind = ASCII_CLASS[code];
      const raw = kind === 0 ? random() < 0.85 : kind === 1 ? random() < 0.5 : false;
      out += raw ? char : hex(code, random);
    } else {
      // Raw non-ASCII is sent as UTF-8 by the client (here, light-my-request).
      out += random() < 0.3 ? char : percentEncode(char, random);
    }
    index += width;
  }
  return out;
}

/** A request ready to send: its query pairs, already spelled. */
export interface SpelledRequest {
  query: string;
  pairs: [string, string][];
}

/** A pair whose name or value is given already spelled (a raw oddity), or as text. */
export type Piece = { text: string } | { raw: string };

const spellPiece = (piece: Piece, random: Random) =>
  "raw" in piece ? piece.raw : spell(piece.text, random);

/**
 * Spells `values` (plus `extra` pairs) as a query string: parameters in random order, list
 * items split into groups sent as repeated parameters, each group comma-joined (`,` or
 * `%2C`), and sometimes stray `&`s (empty pairs are ignored by form decoding).
 */
export function spellRequest(
  op: OperationSpec,
  values: Values,
  seed: number,
  extra: [Piece, Piece][] = [],
): SpelledRequest {
  const random = prng(seed);
  /** Each pair with its decoded name. */
  const entries: { name: string; pair: [string, string] }[] = [];
  const listNames = new Set(op.params.filter((p) => p.kind === "list").map((p) => p.name));
  for (const [name, list] of Object.entries(values)) {
    if (listNames.has(name) && list.length > 0) {
      let group: string[] = [];
      const groups: string[][] = [];
      for (const item of list) {
        group.push(spell(item, random));
        if (random() < 0.3) {
          groups.push(group);
          group = [];
        }
      }
      if (group.length > 0) groups.push(group);
      for (const items of groups) {
        entries.push({
          name,
          pair: [spell(name, random), items.join(random() < 0.8 ? "," : "%2C")],
        });
      }
    } else {
      for (const value of list)
        entries.push({ name, pair: [spell(name, random), spell(value, random)] });
    }
  }
  for (const [name, value] of extra) {
    const decoded = "text" in name ? name.text : decodeName(name.raw);
    entries.push({ name: decoded, pair: [spellPiece(name, random), spellPiece(value, random)] });
  }
  // Shuffle, then put each list's own pairs back in their order, so items keep their indexes.
  const queues = new Map<string, [string, string][]>();
  for (const { name, pair } of entries) {
    if (!listNames.has(name)) continue;
    const queue = queues.get(name);
    if (queue) queue.push(pair);
    else queues.set(name, [pair]);
  }
  const pairs = entries
    .map((entry) => ({ entry, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ entry }) => queues.get(entry.name)?.shift() ?? entry.pair);
  const stray = random() < 0.1 ? "&" : "";
  return { pairs, query: stray + pairs.map(([n, v]) => `${n}=${v}`).join("&") + stray };
}

function decodeName(spelled: string): string {
  const [[name] = [""]] = new URLSearchParams(`${spelled}=`);
  return name;
}

// ---------------------------------------------------------------------------------------
// Invalid requests

/** One change that makes a valid request invalid at `target` (the decoded name). */
export interface Mutation {
  kind: string;
  target: string;
  /** What fast-check prints in a counterexample. */
  [fc.toStringMethod]?: () => string;
  /** Semantic (not schema-level) problems may be hidden by schema-level ones of other parameters. */
  semantic?: boolean;
  apply(values: Values, extra: [Piece, Piece][]): void;
}

/** Gives a mutation a readable form in counterexamples. */
function labelled(mutation: Mutation, detail?: string): Mutation {
  return {
    ...mutation,
    [fc.toStringMethod]: () =>
      `${mutation.kind} ${JSON.stringify(mutation.target)}${detail === undefined ? "" : `: ${detail}`}`,
  };
}

const showPiece = (piece: Piece) =>
  "raw" in piece ? `raw ${JSON.stringify(piece.raw)}` : JSON.stringify(piece.text).slice(0, 120);

/** Spellings that decode to nothing a decimal, integer, boolean, enum or id accepts. */
export const ENCODING_ODDITIES: Piece[] = [
  { raw: "%" },
  { raw: "%zz" },
  { raw: "%%" },
  { raw: "%2" },
  { raw: "%G1" },
  { raw: "1%" },
  { raw: "%C0%AF" },
  { raw: "%00" },
  { raw: "1%00" },
  { raw: "%ED%A0%80" },
  { raw: "\uD800" },
  { raw: "1\uDC00" },
  { raw: "+1" },
  { raw: "1+" },
  { raw: "%2B%2B1" },
  { raw: "%E2%80%8B1" },
  { raw: "%EF%BC%91" },
  { raw: "%D9%A1" },
  { raw: "%F0%9F%98%80" },
  { raw: "%0A1" },
];

/**
 * Spellings that are not valid percent-encoded UTF-8: bad escapes, overlong forms (NUL
 * among them), encoded surrogates, code points beyond U+10FFFF, stray and truncated
 * sequences (after a valid NUL too). Refused for every parameter, text ones included.
 */
export const MALFORMED_SPELLINGS: Piece[] = [
  { raw: "%" },
  { raw: "%zz" },
  { raw: "a%2" },
  { raw: "%G1" },
  { raw: "100%" },
  { raw: "%C0%AF" },
  { raw: "%C0%80" },
  { raw: "%E0%80%AF" },
  { raw: "%ED%A0%80" },
  { raw: "a%ED%BF%BFb" },
  { raw: "%F4%90%80%80" },
  { raw: "%80" },
  { raw: "%FF%FE" },
  { raw: "%00%C0%80" },
  { raw: "x%E2%82" },
];

const WORD_ODDITIES = ["", " ", "NaN", "Infinity", "-Infinity", "null", "undefined", "[]", "{}"];

/** Decoded values that are not valid for a scalar `schema`, as the schema says. */
export function invalidScalarArb(schema: JsonSchema, inList: boolean): fc.Arbitrary<Piece> {
  const kind = kindOf(schema);
  const text = (arb: fc.Arbitrary<string>) =>
    arb.filter((s) => !inList || !s.includes(",")).map((s): Piece => ({ text: s }));
  const oddities = fc.constantFrom(...ENCODING_ODDITIES, ...MALFORMED_SPELLINGS);
  const anyString = fc.string({ unit: "binary", maxLength: 20 });
  switch (kind) {
    case "decimal": {
      const pattern = new RegExp(schema.pattern ?? "^$", "u");
      const maxLength = schema.maxLength ?? 100;
      return fc.oneof(
        text(
          fc.constantFrom(
            ...WORD_ODDITIES,
            "abc",
            "inf",
            "0x10",
            "0b1",
            "1_000",
            " 1",
            "1 ",
            "1e",
            "e5",
            ".",
            "-",
            "+",
            "1.2.3",
            "--1",
            "1e1.5",
            "1e+-1",
            "١",
            "５",
            "1e10001",
            "-1e10001",
            "1e-10001",
            // Beyond decimal.js's own exponent range (±9e15): must not become Infinity or 0.
            "1e9000000000000001",
            "1e99999999999999999999",
            "-1E+000099999999999999999999",
            "1e-99999999999999999999",
            "-.5e-9000000000000001",
            `1${"0".repeat(maxLength)}`,
            `${"1".repeat(maxLength + 1)}`,
            ...(inList ? [] : ["1,000", "1,5"]),
          ),
        ),
        text(anyString.filter((s) => !pattern.test(s))),
        oddities,
      );
    }
    case "integer": {
      const min = BigInt(schema.minimum ?? Number.MIN_SAFE_INTEGER);
      const max = BigInt(schema.maximum ?? Number.MAX_SAFE_INTEGER);
      const outside = fc.oneof(
        fc.bigInt({ min: 1n, max: 10n ** 30n }).map((d) => String(min - d)),
        fc.bigInt({ min: 1n, max: 10n ** 30n }).map((d) => String(max + d)),
        fc.constantFrom(String(min - 1n), String(max + 1n), "9".repeat(400), `-${"9".repeat(400)}`),
      );
      return fc.oneof(
        text(outside),
        text(
          fc.constantFrom(
            ...WORD_ODDITIES,
            "1.5",
            "1.0",
            "1e3",
            "0x10",
            "abc",
            "+1",
            "1_0",
            " 1",
            "١",
          ),
        ),
        text(anyString.filter((s) => !/^-?[0-9]+$/.test(s))),
        oddities,
      );
    }
    case "boolean":
      return fc.oneof(
        text(
          fc.constantFrom(
            ...WORD_ODDITIES,
            "yess",
            "nope",
            "of",
            "onn",
            "ye",
            "2",
            "-1",
            "tru",
            " true",
            "01",
          ),
        ),
        text(anyString.filter((s) => !BOOLEAN_WORDS.includes(s.toLowerCase()))),
        oddities,
      );
    case "enum": {
      const allowed = (schema.enum ?? []).map(String);
      const near = allowed.flatMap((v) => [v.toUpperCase(), ` ${v}`, `${v} `, `${v}x`]);
      return fc.oneof(
        text(
          fc
            .constantFrom(
              ...WORD_ODDITIES,
              "__proto__",
              "constructor",
              "toString",
              "hasOwnProperty",
              ...near,
            )
            .filter((s) => !allowed.includes(s)),
        ),
        text(anyString.filter((s) => !allowed.includes(s))),
        oddities,
      );
    }
    case "pattern": {
      const pattern = new RegExp(schema.pattern ?? "^$", "u");
      const max = schema.maxLength;
      const min = schema.minLength ?? 0;
      return fc.oneof(
        text(anyString.filter((s) => !pattern.test(s))),
        ...(max !== undefined ? [text(fc.constant("a".repeat(max + 1)))] : []),
        ...(min > 0 ? [text(fc.constant(""))] : []),
        oddities,
      );
    }
    case "text": {
      const max = schema.maxLength;
      const min = schema.minLength ?? 0;
      const options: fc.Arbitrary<Piece>[] = [];
      if (max !== undefined) {
        const chars = max <= 10_000 ? ["x", "😀", "é"] : ["x"];
        options.push(
          text(
            fc
              .tuple(fc.constantFrom(...chars), fc.integer({ min: 1, max: 3 }))
              .map(([c, over]) => c.repeat(max + over)),
          ),
        );
      }
      if (min > 0) options.push(text(fc.constant("")));
      options.push(fc.constantFrom(...MALFORMED_SPELLINGS));
      return fc.oneof(...options);
    }
    case "list":
      throw new Error("not a scalar");
  }
}

const PROTOTYPE_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "prototype",
  "",
  "[]",
];

/**
 * Mutations of `op`'s requests derived from the document; `semanticItems` adds invalid
 * list items known from the operation's description (see the table in fuzz.test.ts).
 */
export function mutationArb(
  op: OperationSpec,
  semanticItems: Record<string, string[]> = {},
): fc.Arbitrary<Mutation> {
  const names = new Set(op.params.map((p) => p.name));
  /** Oversized lists are costly to send: weight 1; everything else weight 3. */
  const options: fc.WeightedArbitrary<Mutation>[] = [];
  const add = (arbitrary: fc.Arbitrary<Mutation>, weight = 3) => {
    options.push({ arbitrary, weight });
  };

  // Unknown parameters: prototype names, case variants of real ones, anything else.
  const unknownName = fc
    .oneof(
      fc.constantFrom(...PROTOTYPE_NAMES),
      fc.constantFrom(...[...names].flatMap((n) => [n.toUpperCase(), `${n}[]`, `${n} `, `${n}.0`])),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/),
      fc.string({ unit: "binary", maxLength: 12 }),
    )
    .filter((name) => !names.has(name));
  add(
    fc.tuple(unknownName, fc.string({ maxLength: 8 })).map(
      ([name, value]): Mutation =>
        labelled(
          {
            kind: "unknown parameter",
            target: name,
            apply: (_values, extra) => extra.push([{ text: name }, { text: value }]),
          },
          JSON.stringify(value),
        ),
    ),
  );

  for (const param of op.params) {
    const { name } = param;
    if (param.required) {
      add(
        fc.constant<Mutation>(
          labelled({
            kind: "missing",
            target: name,
            apply: (values) => {
              delete values[name];
            },
          }),
        ),
      );
    }
    if (param.kind === "list") {
      const itemSchema = param.schema.items ?? {};
      const max = param.schema.maxItems;
      if (max !== undefined) {
        add(
          fc
            .tuple(
              fc.array(
                scalarArb(itemSchema).filter((v) => !v.includes(",")),
                { minLength: 1, maxLength: 3 },
              ),
              fc.integer({ min: 1, max: 3 }),
            )
            .map(
              ([seed, over]): Mutation =>
                labelled(
                  {
                    kind: "too many items",
                    target: name,
                    apply: (values) => {
                      values[name] = Array.from(
                        { length: max + over },
                        (_, i) => seed[i % seed.length] as string,
                      );
                    },
                  },
                  `${max + over} items cycling ${JSON.stringify(seed)}`,
                ),
            ),
          1,
        );
      }
      // Every item kind has invalid values: at least its malformed spellings.
      const badItems: fc.Arbitrary<{ piece: Piece; semantic: boolean }>[] = [
        invalidScalarArb(itemSchema, true).map((piece) => ({ piece, semantic: false })),
      ];
      const known = semanticItems[name];
      if (known && known.length > 0) {
        badItems.push(
          fc
            .oneof(
              fc.constantFrom(...known).map((text): Piece => ({ text })),
              fc.constantFrom(...ENCODING_ODDITIES),
            )
            .map((piece) => ({ piece, semantic: true })),
        );
      }
      if (badItems.length > 0) {
        add(
          fc.oneof(...badItems).map(
            ({ piece, semantic }): Mutation =>
              labelled(
                {
                  kind: "bad item",
                  target: name,
                  semantic,
                  apply: (_values, extra) => extra.push([{ text: name }, piece]),
                },
                showPiece(piece),
              ),
          ),
        );
      }
      continue;
    }
    add(
      invalidScalarArb(param.schema, false).map(
        (piece): Mutation =>
          labelled(
            {
              kind: "bad value",
              target: name,
              apply: (values, extra) => {
                delete values[name];
                extra.push([{ text: name }, piece]);
              },
            },
            showPiece(piece),
          ),
      ),
    );
    // A single-valued parameter given twice (even twice the same valid value).
    add(
      fc.tuple(scalarArb(param.schema), scalarArb(param.schema)).map(
        ([a, b]): Mutation =>
          labelled(
            {
              kind: "duplicated",
              target: name,
              apply: (values, extra) => {
                delete values[name];
                extra.push([{ text: name }, { text: a }], [{ text: name }, { text: b }]);
              },
            },
            `${JSON.stringify(a).slice(0, 60)} and ${JSON.stringify(b).slice(0, 60)}`,
          ),
      ),
    );
  }
  return fc.oneof(...options);
}

/**
 * A combination of values that each parameter's schema accepts but the operation refuses
 * with a 422 at `target` (an even root of a negative number, `end < start`…): known from the
 * operation's description, never from its schema.
 */
export interface InvalidCombination {
  target: string;
  why: string;
  /** Values to set (replacing the base's); parameters listed in `drop` are removed. */
  values: fc.Arbitrary<{ set: Values; drop?: string[] }>;
}

/**
 * One to three schema-level mutations, each on a different parameter; or, sometimes, one
 * semantic combination alone (alone, so that no schema-level problem can hide it).
 */
export function mutationsArb(
  op: OperationSpec,
  semanticItems: Record<string, string[]> = {},
  combinations: InvalidCombination[] = [],
): fc.Arbitrary<Mutation[]> {
  const schemaLevel = fc.uniqueArray(mutationArb(op, semanticItems), {
    minLength: 1,
    maxLength: 3,
    selector: (mutation) => mutation.target,
  });
  if (combinations.length === 0) return schemaLevel;
  const combination = fc
    .oneof(
      ...combinations.map((c) =>
        c.values.map(
          ({ set, drop = [] }): Mutation =>
            labelled(
              {
                kind: `combination (${c.why})`,
                target: c.target,
                apply: (values) => {
                  for (const name of drop) delete values[name];
                  Object.assign(values, set);
                },
              },
              `set ${JSON.stringify(set).slice(0, 200)}${drop.length > 0 ? `, drop ${drop.join(", ")}` : ""}`,
            ),
        ),
      ),
    )
    .map((mutation) => [mutation]);
  return fc.oneof({ weight: 3, arbitrary: schemaLevel }, { weight: 1, arbitrary: combination });
}
