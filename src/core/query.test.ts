/**
 * The REST query parser (src/rest/query.ts): form decoding as `URLSearchParams` does it for
 * every valid query, strict where `URLSearchParams` silently rewrites (bad escapes, bytes
 * that are not UTF-8), and the typed input built from it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AnyOperation } from "../kit/define.js";
import { z } from "../kit/index.js";
import { list, text } from "../kit/params.js";
import { MAX_QUERY_PAIRS, parseQueryString, planFor, type QueryValues, toInput } from "./query.js";

const entries = (values: QueryValues) => [...values];

describe("parseQueryString", () => {
  it.each([
    ["", []],
    ["a=1", [["a", ["1"]]]],
    [
      "a=1&a=2&b=",
      [
        ["a", ["1", "2"]],
        ["b", [""]],
      ],
    ],
    [
      "a&&b=&=c",
      [
        ["a", [""]],
        ["b", [""]],
        ["", ["c"]],
      ],
    ],
    ["a=1=2", [["a", ["1=2"]]]],
    ["t=a+b%2Bc%20d", [["t", ["a b+c d"]]]],
    ["%74=%E2%82%AC", [["t", ["€"]]]],
    ["t=%F0%9F%98%80%00", [["t", ["😀\0"]]]],
    ["t=%ef%bf%bd", [["t", ["\uFFFD"]]]],
    ["numbers=1,2&numbers=3", [["numbers", ["1,2", "3"]]]],
    [
      "__proto__=1&constructor=2",
      [
        ["__proto__", ["1"]],
        ["constructor", ["2"]],
      ],
    ],
  ])("%j → %j", (query, expected) => {
    const values = parseQueryString(query);
    expect(entries(values)).toEqual(expected);
    expect(values.malformed).toBeUndefined();
    expect(values.truncated).toBe(false);
  });

  it("agrees with URLSearchParams on every query that is valid percent-encoded UTF-8", () => {
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => encodeURIComponent(s)),
      fc.string({
        unit: fc.constantFrom("a", "+", "%41", "%2B", "%26", "%3D", ",", "%2C", "="),
        maxLength: 8,
      }),
    );
    const query = fc
      .array(fc.tuple(piece, fc.option(piece, { nil: undefined })), { maxLength: 8 })
      .map((pairs) => pairs.map(([n, v]) => (v === undefined ? n : `${n}=${v}`)).join("&"));
    fc.assert(
      fc.property(query, (q) => {
        const expected = new Map<string, string[]>();
        for (const [name, value] of new URLSearchParams(q)) {
          expected.set(name, [...(expected.get(name) ?? []), value]);
        }
        expect(entries(parseQueryString(q))).toEqual([...expected]);
      }),
      { seed: 12, numRuns: 500 },
    );
  });

  it.each([
    ["t=%", "t"],
    ["t=%ZZ", "t"],
    ["t=%2", "t"],
    ["t=abc%G1", "t"],
    ["t=%C0%AE", "t"], // overlong '.'
    ["t=%C0%80", "t"], // overlong NUL
    ["t=%E0%80%AF", "t"], // overlong '/'
    ["t=%ED%A0%80", "t"], // encoded lone surrogate
    ["t=%ED%BF%BF", "t"],
    ["t=%F4%90%80%80", "t"], // beyond U+10FFFF
    ["t=%80", "t"],
    ["t=%FF%FE", "t"],
    ["t=\uD800", "t"], // a raw lone surrogate (in-process only: Node refuses raw non-ASCII)
  ])("%j is kept undecoded and marked malformed", (query, name) => {
    const values = parseQueryString(query);
    expect(values.get(name)).toEqual([query.slice(name.length + 1)]);
    expect(values.malformed).toEqual([{ name, index: 0 }]);
  });

  it("a malformed name is kept undecoded (and so never a known parameter)", () => {
    const values = parseQueryString("%ZZ=1&ok=2");
    expect(entries(values)).toEqual([
      ["%ZZ", ["1"]],
      ["ok", ["2"]],
    ]);
    expect(values.malformed).toEqual([{ name: "%ZZ", index: 0 }]);
  });

  it(`stops after ${MAX_QUERY_PAIRS} pairs and marks the result truncated`, () => {
    const at = parseQueryString(Array(MAX_QUERY_PAIRS).fill("a=1").join("&"));
    expect(at.truncated).toBe(false);
    expect(at.get("a")).toHaveLength(MAX_QUERY_PAIRS);
    const over = parseQueryString(
      Array(MAX_QUERY_PAIRS + 1)
        .fill("a=1")
        .join("&"),
    );
    expect(over.truncated).toBe(true);
    expect(over.get("a")).toHaveLength(MAX_QUERY_PAIRS);
  });
});

describe("toInput", () => {
  const operation = {
    input: z.object({
      text: text({ max: 100 }),
      textEncoding: z.enum(["utf8", "hex", "base64"]).default("utf8"),
      words: list(z.string(), { min: 1, max: 10 }),
      count: z.int().optional(),
      flag: z.boolean().optional(),
    }),
  } as unknown as AnyOperation;
  const plan = planFor(operation);

  it("splits list values at commas, decoded ones included, and converts scalars", () => {
    const { input, problems } = toInput(
      plan,
      parseQueryString("words=a,b&words=c%2Cd&count=-12&flag=TRUE&text=x"),
    );
    expect(problems).toEqual([]);
    expect(input).toEqual({ words: ["a", "b", "c", "d"], count: -12, flag: true, text: "x" });
  });

  it("reports unknown and repeated parameters", () => {
    const { problems } = toInput(plan, parseQueryString("nope=1&text=a&text=b"));
    expect(problems.map((p) => [p.loc, p.type])).toEqual([
      [["nope"], "extra_forbidden"],
      [["text"], "value_error"],
    ]);
  });

  it("a malformed value is a value_error at its parameter, pointing to the byte encodings", () => {
    const { problems } = toInput(plan, parseQueryString("text=%C0%AE"));
    expect(problems).toEqual([
      {
        loc: ["text"],
        msg: expect.stringMatching(
          /^Value error, the value is not valid percent-encoded UTF-8: .*not valid UTF-8.*use textEncoding=hex or textEncoding=base64$/,
        ),
        type: "value_error",
      },
    ]);
    const badEscape = toInput(plan, parseQueryString("text=ab%ZZ")).problems[0];
    expect(badEscape?.msg).toContain("'%' at index 2 is not followed by two hexadecimal digits");
  });

  it("a malformed list item is located at its index; the other items keep theirs", () => {
    const { input, problems } = toInput(
      plan,
      parseQueryString("words=a&words=b%2Cc,%ZZ,d&words=%ED%A0%80"),
    );
    expect(input.words).toEqual(["a", "b", "c", "%ZZ", "d", "%ED%A0%80"]);
    expect(problems.map((p) => p.loc)).toEqual([
      ["words", "3"],
      ["words", "5"],
    ]);
    // No `wordsEncoding`: no hint about one.
    expect(problems[0]?.msg).not.toContain("Encoding");
  });
});
