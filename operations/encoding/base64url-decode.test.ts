import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { locTypes, problemsOf } from "../_testing.js";
import { describeDecoder } from "./_decode-suite.js";
import operation from "./base64url-decode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/base64url-decode", () => {
  it.each([
    ["", ""],
    ["Zg", "f"],
    ["Zg==", "f"],
    ["Zm8", "fo"],
    ["Zm9vYmE", "fooba"],
    ["Zm9vYmFy", "foobar"],
  ])("%j is %j", (text, decoded) => {
    expect(run({ text })).toEqual({ decoded, encoding: "utf8", decodedBytes: decoded.length });
  });

  it("reads - and _ as 62 and 63", () => {
    expect(run({ text: "-_8", encoding: "hex" })).toEqual({
      decoded: "fbff",
      encoding: "hex",
      decodedBytes: 2,
    });
  });

  it.each([
    ["+_8", "'+' at index 0", "base64-decode"],
    ["ab/c", "'/' at index 2", "base64-decode"],
    ["Zm9v YmFy", "' ' at index 4", "whitespace"],
    ["Zh", "non-zero unused bits in its last character 'h' at index 1", "'g'"],
    ["Zg=", "wrong padding at index 2", ""],
  ])("refuses %j at text, naming %s", (text, where, hint) => {
    const problems = problemsOf(operation, { text });
    expect(locTypes(problems)).toEqual([[["text"], "value_error"]]);
    expect(problems[0]?.msg).toContain(where);
    expect(problems[0]?.msg).toContain(hint);
  });
});

describeDecoder(operation, execute, (bytes) => bytes.toString("base64url"), [
  Buffer.alloc(75_000, 1).toString("base64url"),
]);
