import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { locTypes, problemsOf } from "../_testing.js";
import { describeDecoder } from "./_decode-suite.js";
import operation from "./base64-decode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/base64-decode", () => {
  // RFC 4648 section 10, padded and not.
  it.each([
    ["", ""],
    ["Zg==", "f"],
    ["Zm8=", "fo"],
    ["Zm9v", "foo"],
    ["Zm9vYg==", "foob"],
    ["Zm9vYmE=", "fooba"],
    ["Zm9vYmFy", "foobar"],
  ])("%j is %j, with or without its padding", (text, decoded) => {
    const answer = { decoded, encoding: "utf8", decodedBytes: decoded.length };
    expect(run({ text })).toEqual(answer);
    expect(run({ text: text.replace(/=+$/, "") })).toEqual(answer);
  });

  it.each([
    ["Zm9v YmFy", "' ' at index 4", "%2B"],
    ["Zm9v\nYmFy", "U+000A at index 4", "line breaks"],
    ["-_8", "'-' at index 0", "base64url-decode"],
    ["Zg=a", "'=' padding at index 2 followed by 'a' at index 3", ""],
    ["Zm9vY", "group of one character (at index 4)", ""],
    ["Zg=", "wrong padding at index 2: 2 characters need '=='", ""],
    ["Zm9v=", "padding at index 4, but the 4 characters before it make whole groups", ""],
    ["Zh==", "non-zero unused bits in its last character 'h' at index 1", "'g'"],
    ["Zm9=", "non-zero unused bits in its last character '9' at index 2", "'8'"],
  ])("refuses %j at text, naming %s", (text, where, hint) => {
    const problems = problemsOf(operation, { text });
    expect(locTypes(problems)).toEqual([[["text"], "value_error"]]);
    expect(problems[0]?.msg).toContain(where);
    expect(problems[0]?.msg).toContain(hint);
    expect(problems[0]?.msg).toMatch(/^Value error, text is not valid base64: it /);
  });

  it("decodes binary bytes to hex", () => {
    expect(run({ text: "AP8Q", encoding: "hex" })).toEqual({
      decoded: "00ff10",
      encoding: "hex",
      decodedBytes: 3,
    });
  });
});

describeDecoder(operation, execute, (bytes) => bytes.toString("base64"), [
  Buffer.alloc(75_000, 1).toString("base64"),
  Buffer.from("€".repeat(25_000)).toString("base64"),
]);
