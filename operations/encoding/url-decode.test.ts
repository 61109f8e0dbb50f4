import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { locTypes, problemsOf } from "../_testing.js";
import { describeDecoder } from "./_decode-suite.js";
import operation from "./url-decode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/url-decode", () => {
  it.each([
    ["component", "a%20b+c", "a b+c"],
    ["form", "a%20b+c", "a b c"],
    ["component", "%e2%82%ac%E2%82%AC", "€€"],
    ["component", "%2541", "%41"],
    ["component", "café ok", "café ok"],
    ["component", "", ""],
  ])("%s mode reads %j as %j", (mode, text, decoded) => {
    expect(run({ text, mode })).toEqual({
      decoded,
      encoding: "utf8",
      decodedBytes: Buffer.byteLength(decoded),
    });
  });

  it.each([
    ["%", 0],
    ["abc%2", 3],
    ["100%", 3],
    ["%zz", 0],
    ["%41%4", 3],
    ["50% off", 2],
  ])("refuses %j at text, naming index %i", (text, index) => {
    const problems = problemsOf(operation, { text });
    expect(locTypes(problems)).toEqual([[["text"], "value_error"]]);
    expect(problems[0]?.msg).toContain(`'%' at index ${index} not followed by two hexadecimal`);
  });

  it("decodes escapes of bytes that are not UTF-8 when asked for hex", () => {
    expect(run({ text: "%ff%FE", encoding: "hex" })).toEqual({
      decoded: "fffe",
      encoding: "hex",
      decodedBytes: 2,
    });
  });
});

describeDecoder(
  operation,
  execute,
  (bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
  ["%01".repeat(33_333), "€".repeat(100_000), "\u0001".repeat(100_000)],
);
