/**
 * Property-based fuzzing of every operation in the OpenAPI document (fast-check, fixed
 * seed). For each operation:
 *
 * - valid requests, generated from the parameters' JSON Schemas (plus the semantic table
 *   below), must answer 200 (or, where the table says so, a documented 422 for a clear
 *   minority) with a body matching the documented schema;
 * - invalid requests (wrong types, out of range, oversized, empty, missing, duplicated and
 *   unknown parameters, `__proto__`, percent-encoding oddities, lone surrogates) must
 *   answer 422 with a `detail` list locating each problem;
 * - the same valid values through `POST /graphql` must never give a 5xx or an unmasked
 *   error, and must agree with REST.
 *
 * Every response goes through the document-driven {@link Oracle}. The summary is written to
 * `artifacts/fuzz-summary.json`. Reproduce a run with `FUZZ_SEED=<seed> FUZZ_RUNS=<n>`.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { QUESTIONS } from "../../operations/fun/_questions.js";
import { toRoman } from "../../operations/misc/_roman.js";
import { AUTH, TEST_KEY, testApp } from "../helpers.js";
import {
  decimalArb,
  type InvalidCombination,
  integerArb,
  listArb,
  MALFORMED_SPELLINGS,
  mutationsArb,
  type OperationSpec,
  operationsOf,
  type Piece,
  patternArb,
  prng,
  spell,
  spellRequest,
  type Values,
  valuesArb,
} from "./generators.js";
import { findNonFiniteToken, type ObservedResponse, Oracle } from "./oracle.js";
import { catalogueSemanticsA } from "./semantics-catalogue-a.js";
import { CATALOGUE_C_SEMANTICS } from "./semantics-catalogue-c.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_122);
/** Runs per operation and kind (valid, invalid); GraphQL gets a fifth of it. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const GRAPHQL_RUNS = Math.max(10, Math.round(RUNS / 5));
const TIMEOUT = 120_000;
const started = Date.now();

const app = await testApp();
afterAll(() => app.close());
const doc = (await app.inject({ url: "/openapi.json" })).json() as Record<string, unknown>;
const oracle = new Oracle(doc);
const operations = operationsOf(doc);

// ---------------------------------------------------------------------------------------
// What the schema cannot say: per-operation knowledge, each entry with its reason.

interface Semantics {
  /** Why schema-valid input is not enough for this operation. */
  why: string;
  /** Turns schema-valid values into semantically valid ones. */
  refine?: (values: Values) => fc.Arbitrary<Values>;
  /** Schema-valid input may still be refused with 422: the least share of 200s required. */
  minOk?: number;
  /** List items the description (not the schema) rules out: each must be a 422. */
  invalidItems?: Record<string, string[]>;
  /** Combinations each parameter's schema accepts but the operation refuses (422 at `target`). */
  invalid?: InvalidCombination[];
  /** Values that must answer the documented 404. */
  notFound?: fc.Arbitrary<Values>;
  /** When the answer is random (so REST and GraphQL may differ). */
  random?: (values: Values) => boolean;
}

const first = (values: Values, name: string) => values[name]?.[0];
/** The contract's spellings of true (section 1), in any case. */
const TRUE_WORDS = new Set(["true", "1", "yes", "on", "y", "t"]);
const isTrue = (word: string | undefined) => TRUE_WORDS.has(word?.toLowerCase() ?? "");
const unsigned = (literal: string) => literal.replace(/^[+-]/, "");

/** `divisor:word`: divisor 1 to 10^9 in digits, word 1 to 32 printable characters, single spaces, no comma. */
const WORD_CHARS = [..."abcXYZéßΣ你😀0123456789:;!?-_*/@#%&+=.'\"()[]{}<>^`~|$€…\u0301"];
const ruleArb = fc
  .tuple(
    fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 1e9 })),
    fc.constantFrom("", "0", "00"),
    fc.array(fc.string({ unit: fc.constantFrom(...WORD_CHARS), minLength: 1, maxLength: 10 }), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([divisor, zeros, words]) => `${divisor > 1e8 ? "" : zeros}${divisor}:${words.join(" ")}`);

function ipv4(address: number): string {
  return [24, 16, 8, 0].map((shift) => (address >>> shift) & 255).join(".");
}

/** IPv6 text: full, with leading zeros, `::`-compressed or IPv4-mapped, any case. */
function ipv6(groups: number[], style: number): string {
  const hex = groups.map((g) => g.toString(16));
  if (style === 1) return groups.map((g) => g.toString(16).padStart(4, "0")).join(":");
  if (style === 2) {
    let best = { at: -1, length: 0 };
    for (let at = 0; at < 8; at += 1) {
      let length = 0;
      while (at + length < 8 && groups[at + length] === 0) length += 1;
      if (length > best.length) best = { at, length };
    }
    if (best.length >= 2) {
      const head = hex.slice(0, best.at).join(":");
      const tail = hex.slice(best.at + best.length).join(":");
      return `${head}::${tail}`;
    }
  }
  if (style === 3) {
    const [a = 0, b = 0] = groups.slice(6);
    return `::ffff:${ipv4(((a << 16) | b) >>> 0)}`;
  }
  return hex.join(":");
}

const BITS = { 4: 32, 6: 128 } as const;

/** An address of `family`, in any of the spellings {@link networkArb} uses, no prefix. */
function addressArb(family: 4 | 6): fc.Arbitrary<string> {
  return networkArb(family, false).map((network) => network.replace(/\/\d+$/, ""));
}

/** A network of `family`; with `strict`, host bits cleared (`strict=true` refuses them). */
function networkArb(family: 4 | 6, strict: boolean): fc.Arbitrary<string> {
  const bits = BITS[family];
  const prefix = fc.option(fc.integer({ min: 0, max: bits }), { nil: undefined, freq: 4 });
  const address =
    family === 4
      ? fc.bigInt({ min: 0n, max: 2n ** 32n - 1n })
      : fc
          .array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
            minLength: 8,
            maxLength: 8,
          })
          .map((groups) => groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n));
  return fc
    .tuple(address, prefix, fc.integer({ min: 0, max: 3 }), fc.boolean())
    .map(([value, length, style, upper]) => {
      let number = value;
      let spelling = style;
      if (family === 6 && style === 3) number = (0xffffn << 32n) | (number & 0xffff_ffffn);
      if (strict && length !== undefined) {
        const host = BigInt(bits - length);
        number = (number >> host) << host;
      }
      // Cleared host bits may have cleared the ::ffff: of an IPv4-mapped address too.
      if (spelling === 3 && number >> 32n !== 0xffffn) spelling = 2;
      let text: string;
      if (family === 4) {
        text = ipv4(Number(number));
      } else {
        const groups = Array.from({ length: 8 }, (_, i) =>
          Number((number >> BigInt(16 * (7 - i))) & 0xffffn),
        );
        text = ipv6(groups, spelling);
        if (upper) text = text.toUpperCase();
      }
      return length === undefined ? text : `${text}/${length}`;
    });
}

function bytesAs(encoding: string | undefined): fc.Arbitrary<string> | undefined {
  const bytes = fc.oneof(
    { weight: 9, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1000, maxLength: 5000 }) },
  );
  if (encoding === "hex") {
    return fc
      .tuple(bytes, fc.constantFrom("lower", "upper"))
      .map(([b, c]) =>
        c === "upper"
          ? Buffer.from(b).toString("hex").toUpperCase()
          : Buffer.from(b).toString("hex"),
      );
  }
  if (encoding === "base64") {
    return fc.tuple(bytes, fc.boolean()).map(([b, padded]) => {
      const text = Buffer.from(b).toString("base64");
      return padded ? text : text.replace(/=+$/, "");
    });
  }
  return undefined;
}

/** With a hex or base64 input encoding, the text must be valid in it (else 422 at that text). */
function encodedTexts(pairs: [string, string][]) {
  return (values: Values): fc.Arbitrary<Values> => {
    const replacements = pairs.map(
      ([, encoding]) => bytesAs(first(values, encoding)) ?? fc.constant(undefined),
    );
    return fc.tuple(...replacements).map((texts) => {
      const out = { ...values };
      texts.forEach((value, index) => {
        if (value !== undefined) out[(pairs[index] as [string, string])[0]] = [value];
      });
      return out;
    });
  };
}

const QUESTION_IDS = QUESTIONS.map((q) => q.id);
const CATEGORIES = [...new Set(QUESTIONS.map((q) => q.category))];
/** The document's schema of a decimal parameter. */
const DECIMAL =
  operations.flatMap((op) => op.params).find((p) => p.kind === "decimal")?.schema ?? {};
/** A decimal literal that is not zero, without its sign. */
const positiveLiteral = decimalArb(DECIMAL)
  .map(unsigned)
  .filter((literal) => /[1-9]/.test(literal.split(/[eE]/)[0] as string));
const BAD_HEX = ["a", "abc", "zz", "0x00", "ab cd", "é1", "0g"];
const BAD_BASE64 = [
  "a",
  "abcde",
  "ab=c",
  "abc==",
  "*abc",
  "ab c",
  "Zh==",
  "Zg=",
  "=",
  "Zm9v\u00e9",
];
const badEncoded = (text: string, encoding: string): InvalidCombination => ({
  target: text,
  why: `${text} not valid in ${encoding}`,
  values: fc
    .oneof(
      fc.constantFrom(...BAD_HEX).map((bad) => ["hex", bad] as const),
      fc.constantFrom(...BAD_BASE64).map((bad) => ["base64", bad] as const),
    )
    .map(([name, bad]) => ({ set: { [encoding]: [name], [text]: [bad] } })),
});
const categoryOf = new Map(QUESTIONS.map((q) => [q.id, q.category]));
const RESULT_DIGITS =
  "a result whose plain notation needs more than 10,000 digits is a 422 (README limits)";

/** Keyed by path. Operations not listed need nothing beyond their schema: every valid request is a 200. */
const SEMANTICS: Record<string, Semantics> = {
  "/v1/math/nth-root": {
    why: "an even root of a negative number is not real: 422 on `number`",
    refine: (values) => {
      const degree = Number(first(values, "degree"));
      const number = first(values, "number") ?? "1";
      return fc.constant(degree % 2 === 0 ? { ...values, number: [unsigned(number)] } : values);
    },
    invalid: [
      {
        target: "number",
        why: "even root of a negative number",
        values: fc
          .tuple(positiveLiteral, fc.integer({ min: 1, max: 500 }))
          .map(([n, half]) => ({ set: { number: [`-${n}`], degree: [String(2 * half)] } })),
      },
    ],
  },
  "/v1/misc/fizzbuzz": {
    why:
      "end ≥ start and end − start < 10,000 (both bounds may default), and each rule is " +
      "`divisor:word`: the schema's items are plain strings",
    refine: (values) =>
      fc
        .tuple(
          fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 9999 })),
          fc.option(fc.array(ruleArb, { minLength: 1, maxLength: 10 }), { nil: undefined }),
        )
        .map(([span, rules]) => {
          const out = { ...values };
          const start = Number(first(values, "start") ?? 1);
          const end = Number(first(values, "end") ?? 100);
          if (!(end >= start && end - start < 10_000)) {
            if (values.end || !values.start) {
              out.start = [String(Math.max(end - span, -1e15))];
            } else {
              out.end = [String(Math.min(start + span, 1e15))];
            }
          }
          if (rules) out.rules = rules;
          else delete out.rules;
          return out;
        }),
    invalid: [
      {
        target: "end",
        why: "end < start",
        values: fc
          .tuple(fc.integer({ min: -1e15 + 1e6, max: 1e15 }), fc.integer({ min: 1, max: 1e6 }))
          .map(([start, less]) => ({
            set: { start: [String(start)], end: [String(start - less)] },
          })),
      },
      {
        target: "end",
        why: "more than 10,000 numbers",
        values: fc
          .tuple(fc.integer({ min: -1e15, max: 1e15 - 2e6 }), fc.integer({ min: 10_000, max: 2e6 }))
          .map(([start, span]) => ({
            set: { start: [String(start)], end: [String(start + span)] },
          })),
      },
    ],
    invalidItems: {
      rules: [
        "3",
        "3:",
        ":Fizz",
        "0:Fizz",
        "1000000001:Big",
        "-3:Fizz",
        "x:Fizz",
        "3:a  b",
        "3: a",
        "3:a ",
        "3:\tx",
        `3:${"w".repeat(33)}`,
        "3:\u0000",
      ],
    },
  },
  "/v1/ip/supernet": {
    why:
      "items are real IPv4/IPv6 networks of one family (the schema says only string, 1–64 " +
      "characters); with strict=true host bits must be clear",
    refine: (values) => {
      const strict = isTrue(first(values, "strict"));
      return fc
        .constantFrom(4 as const, 6 as const)
        .chain((family) => listArb({ minItems: 1, maxItems: 1000 }, networkArb(family, strict)))
        .map((networks) => ({ ...values, networks }));
    },
    invalid: [
      {
        target: "networks",
        why: "IPv4 and IPv6 mixed",
        values: fc
          .tuple(
            fc.array(networkArb(4, false), { minLength: 1, maxLength: 4 }),
            fc.array(networkArb(6, false), { minLength: 1, maxLength: 4 }),
            fc.boolean(),
          )
          .map(([v4, v6, v4First]) => ({
            set: { networks: v4First ? [...v4, ...v6] : [...v6, ...v4] },
          })),
      },
      {
        target: "networks",
        why: "host bits set with strict=true",
        values: fc
          .tuple(fc.integer({ min: 0, max: 2 ** 24 - 1 }), fc.integer({ min: 0, max: 7 }))
          .map(([network, host]) => ({
            set: { networks: [`${ipv4((network << 8) | (host + 1))}/${24}`], strict: ["true"] },
          })),
      },
    ],
    invalidItems: {
      networks: [
        "10.0.0.0/33",
        "::/129",
        "256.0.0.1",
        "010.0.0.1",
        "10.0.0.0/024",
        "10.0.0.0/+8",
        "10.0.0.0/-1",
        "10.0.0.0/8/8",
        "fe80::1%eth0",
        "1.2.3",
        "1.2.3.4.5",
        ":::",
        "gggg::",
        "10.0.0.0/",
        "/8",
        "localhost",
      ],
    },
  },
  "/v1/hash/hmac-md5": {
    why: "with textEncoding/keyEncoding hex or base64, text/key must be valid hex/base64 (else 422)",
    refine: encodedTexts([
      ["text", "textEncoding"],
      ["key", "keyEncoding"],
    ]),
    invalid: [badEncoded("text", "textEncoding"), badEncoded("key", "keyEncoding")],
  },
  "/v1/crypto/checksum/md5": {
    why: "with textEncoding hex or base64, text must be valid hex/base64 (else 422)",
    refine: encodedTexts([["text", "textEncoding"]]),
    invalid: [badEncoded("text", "textEncoding")],
  },
  "/v1/fun/would-you-rather": {
    why:
      "an id must name an existing question (else 404), match `category` when both are given, " +
      "and never come with `seed`; with neither id nor seed the answer is random",
    refine: (values) =>
      values.id
        ? fc.tuple(fc.constantFrom(...QUESTION_IDS), fc.boolean()).map(([id, withCategory]) => {
            const { seed: _, category: __, ...rest } = values;
            return {
              ...rest,
              id: [id],
              ...(withCategory ? { category: [categoryOf.get(id) as string] } : {}),
            };
          })
        : fc.constant(values),
    invalid: [
      {
        target: "seed",
        why: "id and seed together",
        values: fc
          .tuple(
            fc.constantFrom(...QUESTION_IDS),
            integerArb({ minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 }),
          )
          .map(([id, seed]) => ({ set: { id: [id], seed: [seed] }, drop: ["category"] })),
      },
      {
        target: "id",
        why: "id outside the given category",
        values: fc
          .tuple(fc.constantFrom(...QUESTION_IDS), fc.constantFrom(...CATEGORIES))
          .filter(([id, category]) => categoryOf.get(id) !== category)
          .map(([id, category]) => ({ set: { id: [id], category: [category] }, drop: ["seed"] })),
      },
    ],
    notFound: fc
      .oneof(
        fc.integer({ min: 900, max: 999 }).map((n) => `food-${n}`),
        patternArb({ pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", minLength: 1, maxLength: 32 }),
      )
      .filter((id) => !categoryOf.has(id))
      .map((id) => ({ id: [id] })),
    random: (values) => !values.id && !values.seed,
  },
  "/v1/finance/simple-interest": {
    why: `principal and time must be ≥ 0, which a decimal's string schema cannot say; ${RESULT_DIGITS}`,
    refine: (values) =>
      fc.constant({
        ...values,
        principal: [unsigned(first(values, "principal") ?? "0")],
        time: [unsigned(first(values, "time") ?? "0")],
      }),
    invalid: ["principal", "time"].map((name) => ({
      target: name,
      why: `negative ${name}`,
      values: positiveLiteral.map((n) => ({ set: { [name]: [`-${n}`] } })),
    })),
    minOk: 0.5,
  },
  "/v1/ip/cidr": {
    why: "the network is a real IPv4/IPv6 network (the schema says only string, 1–64 characters)",
    refine: (values) =>
      fc
        .constantFrom(4 as const, 6 as const)
        .chain((family) => networkArb(family, false))
        .map((network) => ({ ...values, network: [network] })),
  },
  "/v1/ip/contains": {
    why: "the address and networks are real IPv4/IPv6 ones (the schema says only strings)",
    refine: (values) =>
      fc
        .tuple(
          fc.constantFrom(4 as const, 6 as const).chain((family) => addressArb(family)),
          listArb(
            { minItems: 1, maxItems: 1000 },
            fc.constantFrom(4 as const, 6 as const).chain((family) => networkArb(family, false)),
          ),
        )
        .map(([address, networks]) => ({ ...values, address: [address], networks })),
  },
  "/v1/ip/range-to-cidrs": {
    why: "both ends are real addresses of one family, and last ≥ first (else 422 at `last`)",
    refine: (values) =>
      fc
        .constantFrom(4 as const, 6 as const)
        .chain((family) => fc.tuple(addressArb(family), addressArb(family)))
        .map(([a, b]) => ({ ...values, first: [a], last: [b] })),
    minOk: 0.3,
  },
  "/v1/math/base-convert": {
    why: "`value` is made of digits of base `from` (the schema says only string)",
    refine: (values) => {
      const from = Number(first(values, "from") ?? 10);
      return fc
        .tuple(
          fc.constantFrom("", "-", "+"),
          fc.array(fc.integer({ min: 0, max: from - 1 }), { minLength: 1, maxLength: 1000 }),
          fc.boolean(),
        )
        .map(([sign, digits, upper]) => {
          const text = digits.map((d) => d.toString(36)).join("");
          return { ...values, value: [sign + (upper ? text.toUpperCase() : text)] };
        });
    },
  },
  "/v1/math/lcm": {
    why: "an lcm over 10,000 digits, or a list whose declared work passes the budget, is a 422",
    minOk: 0.3,
  },
  "/v1/math/percent-change": { why: `a change from 0 is undefined; ${RESULT_DIGITS}`, minOk: 0.5 },
  "/v1/math/is-prime": {
    why: "numbers from 3.3·10^24 have no proven witness set: 422",
    minOk: 0.3,
  },
  "/v1/misc/from-roman": {
    why: "only canonical Roman numerals of 1–3,999 are read (the schema says only string)",
    refine: (values) =>
      fc.tuple(fc.integer({ min: 1, max: 3999 }), fc.boolean()).map(([n, lower]) => ({
        ...values,
        roman: [lower ? toRoman(n).toLowerCase() : toRoman(n)],
      })),
  },
  "/v1/stats/percentile": {
    why: `percentiles run from 0 to 100, which a decimal's string schema cannot say; ${RESULT_DIGITS}`,
    refine: (values) =>
      fc
        .array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 100 })
        .map((ps) => ({ ...values, percentiles: ps.map((p) => String(p / 1000)) })),
    minOk: 0.5,
  },
  "/v1/stats/variance": {
    why: "a sample variance needs two numbers, and squares must fit 10,000 digits: else 422",
    minOk: 0.3,
  },
  "/v1/stats/standard-deviation": {
    why: "a sample deviation needs two numbers, and squares must fit 10,000 digits: else 422",
    minOk: 0.3,
  },
  "/v1/math/sum": { why: RESULT_DIGITS, minOk: 0.5 },
  "/v1/math/subtract": { why: RESULT_DIGITS, minOk: 0.5 },
  "/v1/stats/range": { why: RESULT_DIGITS, minOk: 0.5 },
  "/v1/stats/product": { why: `${RESULT_DIGITS}; products grow fast`, minOk: 0.5 },
  ...catalogueSemanticsA({ first, encodedTexts, badEncoded }),
  ...CATALOGUE_C_SEMANTICS,
};

// ---------------------------------------------------------------------------------------
// Requests and checks

/** A fixed seed per operation and property, derived from the run's seed. */
function seedFor(path: string, kind: string): number {
  let hash = SEED >>> 0;
  for (const char of `${kind} ${path}`)
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash | 0;
}

function validValuesArb(op: OperationSpec): fc.Arbitrary<Values> {
  const base = valuesArb(op);
  const refine = SEMANTICS[op.path]?.refine;
  return refine ? base.chain(refine) : base;
}

interface Sent {
  url: string;
  response: ObservedResponse;
  problems: string[];
  body: unknown;
}

async function send(
  path: string,
  query: string,
  headers: Record<string, string> = AUTH,
): Promise<Sent> {
  const url = query ? `${path}?${query}` : path;
  const response = await app.inject({ method: "GET", url, headers });
  const { problems, body } = oracle.check(path, response);
  return { url, response, problems, body };
}

const shorten = (text: string, max = 600) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

function explain(sent: Sent, why: string): string {
  return `${why}\nGET ${shorten(sent.url)}\n→ ${sent.response.statusCode} ${shorten(sent.response.body)}\n${sent.problems.join("\n")}`;
}

interface Problem {
  loc: string[];
  msg: string;
  type: string;
}

/** The contract's 422 body: a non-empty `detail` list of `{loc, msg, type}`, loc from "query". */
function detailProblems(body: unknown): string[] {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (!Array.isArray(detail) || detail.length === 0) return ["detail is not a non-empty array"];
  const problems: string[] = [];
  for (const entry of detail as Problem[]) {
    const { loc, msg, type } = entry ?? ({} as Problem);
    if (!Array.isArray(loc) || loc.length === 0 || !loc.every((part) => typeof part === "string")) {
      problems.push(`loc is not an array of strings: ${JSON.stringify(entry)}`);
    } else if (loc[0] !== "query") {
      problems.push(`loc does not start with "query": ${JSON.stringify(loc)}`);
    }
    if (typeof msg !== "string" || msg === "")
      problems.push(`msg is not a sentence: ${JSON.stringify(entry)}`);
    if (typeof type !== "string" || type === "")
      problems.push(`type is not a string: ${JSON.stringify(entry)}`);
  }
  return problems;
}

const validOk: Record<string, { ok: number; refused: number }> = {};
const invalidCount: Record<string, number> = {};
const graphqlCounts: Record<string, Record<string, number>> = {};
let graphqlUnmasked = 0;

// ---------------------------------------------------------------------------------------
// GraphQL: argument types by introspection, selections from the documented 200 schema

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

const typeText = (ref: TypeRef): string =>
  ref.kind === "NON_NULL"
    ? `${typeText(ref.ofType as TypeRef)}!`
    : ref.kind === "LIST"
      ? `[${typeText(ref.ofType as TypeRef)}]`
      : (ref.name as string);

const introspection = (
  await app.inject({
    method: "POST",
    url: "/graphql",
    headers: { ...AUTH, "content-type": "application/json" },
    payload: {
      query:
        "{ __schema { queryType { fields { name type { name fields { name args { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } } } }",
    },
  })
).json() as {
  data: {
    __schema: {
      queryType: {
        fields: {
          name: string;
          type: { fields: { name: string; args: { name: string; type: TypeRef }[] }[] };
        }[];
      };
    };
  };
};

/** `checksum/md5` → `checksumMd5`: the README's naming of GraphQL fields. */
const camel = (text: string) =>
  text.replace(/[-/]+([a-z0-9])/g, (_m, letter: string) => letter.toUpperCase());

function graphqlFieldOf(path: string) {
  const [, , area = "", ...rest] = path.split("/");
  const areaField = camel(area);
  const field = camel(rest.join("/"));
  const found = introspection.data.__schema.queryType.fields
    .find((f) => f.name === areaField)
    ?.type.fields.find((f) => f.name === field);
  if (!found) throw new Error(`no GraphQL field ${areaField}.${field} for ${path}`);
  return {
    area: areaField,
    field,
    args: new Map(found.args.map((a) => [a.name, typeText(a.type)])),
  };
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema };

function selectionOf(schema: Schema): string {
  return Object.entries(schema.properties ?? {})
    .map(([name, sub]) => {
      const inner = sub.type === "array" ? (sub.items ?? {}) : sub;
      return inner.properties ? `${name} { ${selectionOf(inner)} }` : name;
    })
    .join(" ");
}

/**
 * `values` with each U+FFFD replaced by a lone high surrogate (never followed by a low one:
 * generated text has none unpaired), or `values` itself when it has no U+FFFD.
 */
function withLoneSurrogates(values: Values): Values {
  if (!JSON.stringify(values).includes("\uFFFD")) return values;
  return Object.fromEntries(
    Object.entries(values).map(([name, list]) => [
      name,
      list.map((value) => value.replaceAll("\uFFFD", "\uD800")),
    ]),
  );
}

function variableOf(op: OperationSpec, name: string, values: string[]): unknown {
  const param = op.params.find((p) => p.name === name);
  const convert = (kind: string | undefined, value: string): unknown =>
    kind === "integer" ? Number(value) : kind === "boolean" ? isTrue(value) : value;
  if (param?.kind === "list") return values.map((v) => convert(param.itemKind, v));
  return convert(param?.kind, values[0] as string);
}

// ---------------------------------------------------------------------------------------

describe.each(operations.map((op) => [op.path, op] as const))("%s", (path, op) => {
  const semantics = SEMANTICS[path];

  it(
    "valid requests answer 200 with the documented body",
    async () => {
      const tally = { ok: 0, refused: 0 };
      validOk[path] = tally;
      await fc.assert(
        fc.asyncProperty(validValuesArb(op), fc.integer(), async (values, seed) => {
          const spelled = spellRequest(op, values, seed);
          const sent = await send(path, spelled.query);
          if (sent.problems.length > 0)
            throw new Error(explain(sent, "response breaks the document"));
          if (sent.response.statusCode === 200) {
            tally.ok += 1;
            return;
          }
          if (semantics?.minOk !== undefined && sent.response.statusCode === 422) {
            const detail = detailProblems(sent.body);
            if (detail.length > 0) throw new Error(explain(sent, detail.join("\n")));
            tally.refused += 1;
            return;
          }
          throw new Error(
            explain(sent, `valid input (${JSON.stringify(values).slice(0, 300)}) not answered 200`),
          );
        }),
        { seed: seedFor(path, "valid"), numRuns: RUNS },
      );
      const ratio = tally.ok / (tally.ok + tally.refused);
      expect(ratio, `share of 200s among valid requests`).toBeGreaterThanOrEqual(
        semantics?.minOk ?? 1,
      );
    },
    TIMEOUT,
  );

  it(
    "invalid requests answer 422 with every problem located",
    async () => {
      invalidCount[path] = 0;
      await fc.assert(
        fc.asyncProperty(
          validValuesArb(op),
          mutationsArb(op, semantics?.invalidItems, semantics?.invalid),
          fc.integer(),
          async (valid, mutations, seed) => {
            const values: Values = structuredClone(valid);
            const extra: [Piece, Piece][] = [];
            for (const mutation of mutations) mutation.apply(values, extra);
            const spelled = spellRequest(op, values, seed, extra);
            const sent = await send(path, spelled.query);
            invalidCount[path] = (invalidCount[path] ?? 0) + 1;
            const what = mutations.map((m) => `${m.kind} '${m.target}'`).join(", ");
            if (sent.problems.length > 0)
              throw new Error(explain(sent, `${what}: response breaks the document`));
            if (sent.response.statusCode !== 422)
              throw new Error(explain(sent, `${what}: expected 422`));
            const problems = detailProblems(sent.body);
            const detail = (sent.body as { detail: Problem[] }).detail;
            for (const mutation of mutations) {
              if (mutation.semantic) continue;
              if (!detail.some((p) => p.loc[1] === mutation.target)) {
                problems.push(
                  `no problem located at ${JSON.stringify(mutation.target)} (${mutation.kind})`,
                );
              }
            }
            if (problems.length > 0)
              throw new Error(explain(sent, `${what}:\n${problems.join("\n")}`));
          },
        ),
        { seed: seedFor(path, "invalid"), numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  if (semantics?.notFound) {
    const notFound = semantics.notFound;
    it("a well-formed reference to nothing answers the documented 404", async () => {
      await fc.assert(
        fc.asyncProperty(notFound, fc.integer(), async (values, seed) => {
          const sent = await send(path, spellRequest(op, values, seed).query);
          if (sent.problems.length > 0 || sent.response.statusCode !== 404) {
            throw new Error(explain(sent, "expected the documented 404"));
          }
        }),
        { seed: seedFor(path, "404"), numRuns: Math.max(10, Math.round(RUNS / 5)) },
      );
    });
  }

  if (op.params.some((p) => p.kind === "list")) {
    it("an oversized query (one item too many, 10,101 pairs) is a 422, not a crash", async () => {
      const list = op.params.find((p) => p.kind === "list");
      const name = list?.name as string;
      const max = list?.schema.maxItems ?? 10_000;
      // One documented example item, repeated: each item is valid, only their number is not.
      const item = encodeURIComponent(String([list?.example].flat()[0] ?? "1"));
      const required = op.params.filter((p) => p.required && p.name !== name);
      const rest = required
        .map((p) => `&${p.name}=${encodeURIComponent(String([p.example].flat()[0] ?? "1"))}`)
        .join("");
      for (const query of [
        `${name}=${Array(max + 1)
          .fill(item)
          .join(",")}${rest}`,
        `${Array(10_101).fill(`${name}=${item}`).join("&")}${rest}`,
      ]) {
        const sent = await send(path, query);
        expect(sent.problems, explain(sent, "oversized")).toEqual([]);
        expect(sent.response.statusCode, explain(sent, "oversized")).toBe(422);
        expect(detailProblems(sent.body)).toEqual([]);
      }
    });
  }

  it(
    "valid values through POST /graphql: no 5xx, no unmasked error, same answer as REST",
    async () => {
      const { area, field, args } = graphqlFieldOf(path);
      const okSchema = ((
        doc.paths as Record<
          string,
          { get: { responses: Record<string, { content: Record<string, { schema: Schema }> }> } }
        >
      )[path]?.get.responses["200"]?.content["application/json"]?.schema ?? {}) as Schema;
      const selection = selectionOf(okSchema);
      const counts: Record<string, number> = {};
      graphqlCounts[path] = counts;
      await fc.assert(
        fc.asyncProperty(
          validValuesArb(op),
          fc.integer(),
          fc.boolean(),
          async (values, seed, lone) => {
            const rest = await send(path, spellRequest(op, values, seed).query);
            if (rest.problems.length > 0)
              throw new Error(explain(rest, "REST response breaks the document"));
            // JSON carries what a URL cannot: a lone surrogate. Where REST got U+FFFD, GraphQL
            // may get one; then only robustness is checked, not agreement with REST.
            const surrogated = lone ? withLoneSurrogates(values) : values;
            const comparable = surrogated === values;
            const names = Object.keys(values);
            const declared = names.map((name) => `$${name}: ${args.get(name)}`).join(", ");
            const passed = names.map((name) => `${name}: $${name}`).join(", ");
            const query = `query Fuzz${declared ? `(${declared})` : ""} { ${area} { ${field}${passed ? `(${passed})` : ""} { ${selection} } } }`;
            const variables = Object.fromEntries(
              names.map((name) => [name, variableOf(op, name, surrogated[name] as string[])]),
            );
            const response = await app.inject({
              method: "POST",
              url: "/graphql",
              headers: { ...AUTH, "content-type": "application/json", accept: "application/json" },
              payload: { query, variables },
            });
            const context = `GraphQL ${query}\nvariables ${shorten(JSON.stringify(variables))}\n→ ${response.statusCode} ${shorten(response.body)}\nREST ${rest.response.statusCode} ${shorten(rest.response.body)}`;
            const broken = oracle.observe(response);
            if (broken.length > 0) throw new Error(`${broken.join("\n")}\n${context}`);
            if (response.statusCode !== 200)
              throw new Error(`HTTP ${response.statusCode}\n${context}`);
            if (!String(response.headers["content-type"]).startsWith("application/json")) {
              throw new Error(`content-type ${response.headers["content-type"]}\n${context}`);
            }
            const nonFinite = findNonFiniteToken(response.body);
            if (nonFinite) throw new Error(`bare ${nonFinite}\n${context}`);
            const body = response.json() as {
              data?: Record<string, Record<string, unknown> | null>;
              errors?: { message: string; extensions?: { code?: string; detail?: Problem[] } }[];
            };
            const result = body.data?.[area]?.[field];
            const errors = body.errors ?? [];
            const codes = errors.map((e) => e.extensions?.code ?? "none");
            const outcome = codes[0] ?? "ok";
            counts[outcome] = (counts[outcome] ?? 0) + 1;
            if (codes.some((code) => code !== "BAD_USER_INPUT" && code !== "NOT_FOUND")) {
              graphqlUnmasked += 1;
              throw new Error(`unexpected error code ${codes.join(", ")}\n${context}`);
            }
            if (!comparable) {
              if (result !== null && result !== undefined) {
                const schemaProblems = oracle.validate(path, "200", result);
                if (schemaProblems.length > 0)
                  throw new Error(`${schemaProblems.join("\n")}\n${context}`);
              }
              return;
            }
            const status = rest.response.statusCode;
            if (status === 200) {
              if (errors.length > 0)
                throw new Error(`REST answered 200, GraphQL an error\n${context}`);
              const schemaProblems = oracle.validate(path, "200", result);
              if (schemaProblems.length > 0)
                throw new Error(`${schemaProblems.join("\n")}\n${context}`);
              if (!semantics?.random?.(values)) expect(result, context).toEqual(rest.body);
            } else {
              const expected = status === 404 ? "NOT_FOUND" : "BAD_USER_INPUT";
              if (codes.length !== 1 || codes[0] !== expected || result !== null) {
                throw new Error(
                  `REST answered ${status}, GraphQL did not give one ${expected}\n${context}`,
                );
              }
              if (status === 422) {
                const strip = (problems: Problem[]) =>
                  problems.map((p) => `${p.loc.slice(1).join(".")} ${p.type}`).sort();
                const graphqlDetail = errors[0]?.extensions?.detail ?? [];
                expect(
                  graphqlDetail.every((p) => p.loc[0] === "args"),
                  context,
                ).toBe(true);
                expect(strip(graphqlDetail), context).toEqual(
                  strip((rest.body as { detail: Problem[] }).detail),
                );
              }
            }
          },
        ),
        { seed: seedFor(path, "graphql"), numRuns: GRAPHQL_RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("found by fuzzing", () => {
  // src/kit/params.ts decimal(): a literal whose exponent is beyond decimal.js's range
  // (|e| > 9e15) parses to Infinity (or underflows to 0); `value.e` is then NaN, so the
  // magnitude checks (`Math.abs(value.e) > …`, `plainDigitCount(value) > …`) are all false
  // and the value goes through. Contract: no response contains Infinity; such a literal is
  // outside 1e-10000…1e10000, a 422.
  it.each([
    ["/v1/math/sum", "numbers=1e99999999999999999999"], // 200 {"decimal":"Infinity"}
    ["/v1/math/sum", "numbers=1e9000000000000001"], // 200 {"decimal":"Infinity"}
    ["/v1/stats/product", "numbers=1e99999999999999999999"], // 500
    ["/v1/stats/range", "numbers=1e99999999999999999999,1"], // 200 {"maxDecimal":"Infinity"}
    ["/v1/math/nth-root", "number=1e99999999999999999999&degree=2"], // 200 {"decimal":"Infinity"}
    ["/v1/finance/simple-interest", "principal=1e99999999999999999999&rate=1&time=1"], // 200 Infinity
    ["/v1/math/is-between", "number=-1e-99999999999999999999&lower=0&upper=1"], // 200, isBetween: true
    ["/v1/math/subtract", "a=1&b=1e-99999999999999999999"], // 200, exactly 1
  ])("GET %s?%s is a 422 (exponent beyond decimal.js's range)", async (path, query) => {
    const sent = await send(path, query);
    expect(sent.response.statusCode, explain(sent, "expected 422")).toBe(422);
    expect(sent.problems).toEqual([]);
    expect(sent.response.body).not.toMatch(/Infinity/);
  });

  // Over a real socket only (app.inject has no header limit): `text` may hold 100,000
  // characters per the document, but the request line is capped at 128 KiB (src/app.ts,
  // `maxHeaderSize`), so 30,000 × "é" (180 KB percent-encoded) gets Node's 431, written by
  // fastify's default client-error handler: `{"error","message","statusCode"}` as
  // `application/json` — a status the document does not list, a content type and body
  // outside the contract (`{"detail": …}`, `application/json; charset=utf-8`).
  it("a schema-valid text too long for the request line gets a documented answer", async () => {
    const served = await testApp();
    try {
      await served.listen({ port: 0, host: "127.0.0.1" });
      const { port } = served.server.address() as { port: number };
      const path = "/v1/crypto/checksum/md5";
      const url = `${path}?text=${encodeURIComponent("é".repeat(30_000))}`;
      const response = await fetch(`http://127.0.0.1:${port}${url}`, { headers: AUTH });
      const observed = {
        statusCode: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      };
      const { problems } = oracle.check(path, observed);
      expect(problems, `${observed.statusCode} ${observed.body}`).toEqual([]);
      expect(Object.keys(JSON.parse(observed.body))).toEqual(
        observed.statusCode === 200 ? expect.any(Array) : ["detail"],
      );
    } finally {
      await served.close();
    }
  });
});

describe("/graphql refuses malformed requests with GraphQL errors", () => {
  const piece = fc.oneof(
    fc.string({ unit: "binary", maxLength: 30 }).map((text): Piece => ({ text })),
    fc.json({ maxDepth: 3 }).map((text): Piece => ({ text })),
    fc.constantFrom(...MALFORMED_SPELLINGS),
  );
  const spelled = (p: Piece, random: () => number) => ("raw" in p ? p.raw : spell(p.text, random));

  /** No 5xx, a JSON body, and that body a GraphQL response (it has `errors` or `data`). */
  function expectGraphqlAnswer(response: ObservedResponse & { json(): unknown }, sent: string) {
    const broken = oracle.observe(response);
    if (broken.length > 0) throw new Error(`${broken.join("\n")}\n${sent}\n→ ${response.body}`);
    const body = response.json() as Record<string, unknown>;
    if (!("errors" in body) && !("data" in body)) {
      throw new Error(`not a GraphQL response\n${sent}\n→ ${response.body}`);
    }
  }

  it("GET with any spelling of query, variables and extensions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(piece, { nil: undefined }),
        fc.option(piece, { nil: undefined }),
        fc.option(piece, { nil: undefined }),
        fc.integer(),
        async (query, variables, extensions, seed) => {
          const random = prng(seed);
          const pairs = Object.entries({
            query: query ?? { text: "{ __typename }" },
            variables,
            extensions,
          }).flatMap(([name, p]) => (p ? [`${name}=${spelled(p, random)}`] : []));
          const url = `/graphql?${pairs.join("&")}`;
          const response = await app.inject({
            url,
            headers: { ...AUTH, accept: "application/json" },
          });
          expectGraphqlAnswer(response, `GET ${url}`);
        },
      ),
      { seed: seedFor("/graphql", "get"), numRuns: RUNS },
    );
  });

  it("POST with any JSON body, or bytes that are not JSON", async () => {
    const body = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc
        .record(
          { query: fc.oneof(fc.string(), fc.json()), variables: fc.jsonValue() },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value)),
      fc.string({ unit: "binary", maxLength: 40 }),
    );
    const contentType = fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "application/graphql",
      "text/plain",
      "application/x-www-form-urlencoded",
    );
    await fc.assert(
      fc.asyncProperty(body, contentType, async (payload, type) => {
        const response = await app.inject({
          method: "POST",
          url: "/graphql",
          headers: { ...AUTH, "content-type": type },
          payload,
        });
        expectGraphqlAnswer(response, `POST ${type} ${shorten(payload, 200)}`);
      }),
      { seed: seedFor("/graphql", "post"), numRuns: RUNS },
    );
  });
});

describe("authentication comes first", () => {
  it("any request to any operation without a valid key answers the documented 401", async () => {
    const byPath = new Map(operations.map((op) => [op.path, op]));
    const request = fc
      .constantFrom(...operations.map((op) => op.path))
      .chain((path) =>
        fc.tuple(fc.constant(path), validValuesArb(byPath.get(path) as OperationSpec)),
      );
    const badKey = fc.oneof(
      fc.constant<Record<string, string>>({}),
      fc
        .constantFrom("", " ", TEST_KEY.toUpperCase(), `${TEST_KEY}x`, TEST_KEY.slice(1), "null")
        .map((key) => ({ "x-api-key": key })),
      fc
        .string({ unit: "grapheme-ascii", maxLength: 40 })
        .filter((key) => key.trim() !== TEST_KEY)
        .map((key) => ({ "x-api-key": key })),
    );
    await fc.assert(
      fc.asyncProperty(request, badKey, fc.integer(), async ([path, values], headers, seed) => {
        const sent = await send(
          path,
          spellRequest(byPath.get(path) as OperationSpec, values, seed).query,
          headers,
        );
        if (
          sent.problems.length > 0 ||
          sent.response.statusCode !== 401 ||
          !sent.response.headers["www-authenticate"]
        ) {
          throw new Error(
            explain(
              sent,
              `expected 401 with WWW-Authenticate for headers ${JSON.stringify(headers)}`,
            ),
          );
        }
      }),
      { seed: seedFor("*", "401"), numRuns: RUNS },
    );
  });
});

describe("rate limiting", () => {
  it("past the quota, every operation answers the documented 429 with Retry-After", async () => {
    const limited = await testApp({ RATE_LIMIT: "1", RATE_LIMIT_WINDOW: "3600" });
    try {
      for (const op of operations) {
        // A fresh key per operation would need config; one key, so only the first is a 200/4xx.
        const response = await limited.inject({ url: op.path, headers: AUTH });
        const { problems } = oracle.check(op.path, response);
        expect(problems, `${op.path} → ${response.statusCode} ${response.body}`).toEqual([]);
        if (op !== operations[0]) {
          expect(response.statusCode).toBe(429);
          expect(response.headers["retry-after"]).toMatch(/^\d+$/);
        }
      }
    } finally {
      await limited.close();
    }
  });
});

describe("over the whole suite", () => {
  it("no response ≥ 500, no error without a JSON body, no undocumented status or content type, every body as documented (REST and GraphQL)", () => {
    const {
      serverErrors,
      errorsWithoutJsonBody,
      undocumentedStatus,
      undocumentedContentType,
      schemaViolations,
      nonFiniteTokens,
    } = oracle.counts;
    expect({
      serverErrors,
      errorsWithoutJsonBody,
      undocumentedStatus,
      undocumentedContentType,
      schemaViolations,
      nonFiniteTokens,
      graphqlUnmasked,
    }).toEqual({
      serverErrors: 0,
      errorsWithoutJsonBody: 0,
      undocumentedStatus: 0,
      undocumentedContentType: 0,
      schemaViolations: 0,
      nonFiniteTokens: 0,
      graphqlUnmasked: 0,
    });
    expect(Object.keys(oracle.counts.byOperation).sort()).toEqual(
      operations.map((op) => op.path).sort(),
    );
  });
});

afterAll(() => {
  const counts = oracle.counts;
  const byStatus: Record<string, number> = {};
  for (const statuses of Object.values(counts.byOperation)) {
    for (const [status, n] of Object.entries(statuses))
      byStatus[status] = (byStatus[status] ?? 0) + n;
  }
  const graphqlTotal = Object.values(graphqlCounts).reduce(
    (sum, outcomes) => sum + Object.values(outcomes).reduce((a, b) => a + b, 0),
    0,
  );
  const summary = {
    seed: SEED,
    runsPerOperationAndKind: RUNS,
    graphqlRunsPerOperation: GRAPHQL_RUNS,
    durationMs: Date.now() - started,
    operations: operations.length,
    requests: counts.total,
    byStatus,
    byOperation: counts.byOperation,
    validShareOf200: Object.fromEntries(
      Object.entries(validOk).map(([path, { ok, refused }]) => [
        path,
        Number((ok / Math.max(1, ok + refused)).toFixed(3)),
      ]),
    ),
    invalidRequests: invalidCount,
    serverErrors: counts.serverErrors,
    errorsWithoutJsonBody: counts.errorsWithoutJsonBody,
    undocumentedStatus: counts.undocumentedStatus,
    undocumentedContentType: counts.undocumentedContentType,
    schemaViolations: counts.schemaViolations,
    nonFiniteTokens: counts.nonFiniteTokens,
    graphql: {
      requests: graphqlTotal,
      unmaskedErrors: graphqlUnmasked,
      byOperation: graphqlCounts,
    },
    semantics: Object.fromEntries(Object.entries(SEMANTICS).map(([path, s]) => [path, s.why])),
  };
  const file = resolve(
    dirname(fileURLToPath(import.meta.url)),
    "../../artifacts/fuzz-summary.json",
  );
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  const statuses = Object.entries(byStatus)
    .sort()
    .map(([status, n]) => `${n}×${status}`)
    .join(", ");
  console.log(
    `fuzz (seed ${SEED}): ${counts.total} REST requests over ${operations.length} operations (${statuses}); ` +
      `${counts.serverErrors} responses ≥ 500, ${counts.errorsWithoutJsonBody} errors without a JSON body, ` +
      `${counts.undocumentedStatus} undocumented statuses, ` +
      `${counts.undocumentedContentType} undocumented content types, ${counts.schemaViolations} schema violations; ` +
      `${graphqlTotal} GraphQL requests, ${graphqlUnmasked} unmasked errors; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
