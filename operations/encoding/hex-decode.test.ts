import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { locTypes, problemsOf } from "../_testing.js";
import { describeDecoder } from "./_decode-suite.js";
import operation from "./hex-decode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/hex-decode", () => {
  it.each([
    ["", ""],
    ["66", "f"],
    ["666F6F626172", "foobar"],
    ["666f6F626172", "foobar"],
  ])("%j is %j", (text, decoded) => {
    expect(run({ text })).toEqual({ decoded, encoding: "utf8", decodedBytes: decoded.length });
  });

  it.each([
    ["0x1234", "'x' at index 1", "0x prefix"],
    ["12 34", "' ' at index 2", "separators"],
    ["12:34", "':' at index 2", "separators"],
    ["12g4", "'g' at index 2", ""],
    ["123", "lone hexadecimal digit at index 2", ""],
  ])("refuses %j at text, naming %s", (text, where, hint) => {
    const problems = problemsOf(operation, { text });
    expect(locTypes(problems)).toEqual([[["text"], "value_error"]]);
    expect(problems[0]?.msg).toContain(where);
    expect(problems[0]?.msg).toContain(hint);
    expect(problems[0]?.msg).toMatch(/^Value error, text is not valid hexadecimal: it /);
  });
});

describeDecoder(operation, execute, (bytes) => bytes.toString("hex"), ["01".repeat(50_000)]);
